// The mails Kassa sends, one catalogue (like the problems' titles in src/http/problem.ts): nothing written inline.

/** A new email: the link that finishes the sign-up. */
export function confirmSignUpMail(input: { name: string; link: string; hours: number }) {
  return {
    subject: 'Finish creating your Kassa account',
    body: [
      `Hello ${input.name},`,
      '',
      'Someone (we hope you) asked to create a Kassa account with this email address.',
      'Open this link to finish and sign in:',
      '',
      input.link,
      '',
      `The link works once, for ${input.hours} hours. If it was not you, ignore this mail: no account is made.`,
    ].join('\n'),
  };
}

/** An email that already has an account: what to do instead (the sign-up page said the same as for a new one). */
export function alreadyRegisteredMail(input: { signInLink: string }) {
  return {
    subject: 'You already have a Kassa account',
    body: [
      'Hello,',
      '',
      'Someone (we hope you) asked to create a Kassa account with this email address, but it already has one.',
      'Sign in here instead:',
      '',
      input.signInLink,
      '',
      'If it was not you, ignore this mail: nothing has changed.',
    ].join('\n'),
  };
}
