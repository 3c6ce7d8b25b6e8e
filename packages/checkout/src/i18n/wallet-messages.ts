// The wallet views' own messages, every locale, imported only with the wallet views: the card view's English
// catalogue (catalogue.ts, in the card view's bundle) does not carry them. "Use the PayPal button" is in the main
// catalogues: the machine answers Pay on a wallet view with it. The merchant overrides them like any message, with
// `options.translations` keyed `wallet.<key>` ('wallet.failed': ...).
import type { PaymentMethodResult } from '../machine/checkout.types.ts';
import type { Locale, Translate } from './i18n.ts';

const en = {
  button: 'Pay with {wallet}',
  hint: '{wallet} opens in a window of its own: approve the payment there and your order is paid.',
  sheetHint: 'Confirm the payment in {wallet} and your order is paid.',
  readyToPay: '{wallet} ({account}) is ready to pay.',
  waiting: 'Finish paying in the {wallet} window.',
  sheetWaiting: 'Finish paying in {wallet}.',
  qrTitle: 'Scan to pay with {wallet}',
  qrHint: "Point your phone's camera at the code and approve the payment in {wallet}. This page carries on by itself.",
  qrLabel: 'QR code to pay with {wallet} on your phone',
  cancel: 'Cancel',
  failed: 'This way to pay did not go through. Please try again or choose another way to pay.',
  deleteQuestion: 'Delete {wallet} ({account})?',
  vaultButton: 'Save {wallet}',
  vaultHint: '{wallet} opens in a window of its own: approve there and {wallet} is saved for your next payments.',
  vaultWaiting: 'Finish in the {wallet} window.',
  vaultReady: '{wallet} ({account}) is ready to be saved.',
  saveForLater: 'Save {wallet} for my next payments',
} as const;

export type WalletMessageKey = keyof typeof en;

/** A wallet message's key in `options.translations`. */
export type WalletTranslationKey = `wallet.${WalletMessageKey}`;

export const WALLET_MESSAGES: Readonly<Record<Locale, Readonly<Record<WalletMessageKey, string>>>> = {
  en,
  de: {
    button: 'Mit {wallet} bezahlen',
    hint: '{wallet} öffnet sich in einem eigenen Fenster: Bestätigen Sie dort die Zahlung, und Ihre Bestellung ist bezahlt.',
    sheetHint: 'Bestätigen Sie die Zahlung in {wallet}, und Ihre Bestellung ist bezahlt.',
    readyToPay: '{wallet} ({account}) ist bereit zum Bezahlen.',
    waiting: 'Schließen Sie die Zahlung im {wallet}-Fenster ab.',
    sheetWaiting: 'Schließen Sie die Zahlung in {wallet} ab.',
    qrTitle: 'Scannen, um mit {wallet} zu bezahlen',
    qrHint:
      'Richten Sie die Kamera Ihres Telefons auf den Code und bestätigen Sie die Zahlung in {wallet}. Diese Seite geht danach von selbst weiter.',
    qrLabel: 'QR-Code zum Bezahlen mit {wallet} auf Ihrem Telefon',
    cancel: 'Abbrechen',
    failed: 'Diese Zahlungsart hat nicht funktioniert. Bitte versuchen Sie es erneut oder wählen Sie eine andere Zahlungsart.',
    deleteQuestion: '{wallet} ({account}) löschen?',
    vaultButton: '{wallet} speichern',
    vaultHint:
      '{wallet} öffnet sich in einem eigenen Fenster: Bestätigen Sie dort, und {wallet} wird für Ihre nächsten Zahlungen gespeichert.',
    vaultWaiting: 'Schließen Sie den Vorgang im {wallet}-Fenster ab.',
    vaultReady: '{wallet} ({account}) ist bereit zum Speichern.',
    saveForLater: '{wallet} für meine nächsten Zahlungen speichern',
  },
  fr: {
    button: 'Payer avec {wallet}',
    hint: "{wallet} s'ouvre dans sa propre fenêtre : approuvez-y le paiement et votre commande est payée.",
    sheetHint: 'Confirmez le paiement dans {wallet} et votre commande est payée.',
    readyToPay: '{wallet} ({account}) est prêt pour le paiement.',
    waiting: 'Terminez le paiement dans la fenêtre {wallet}.',
    sheetWaiting: 'Terminez le paiement dans {wallet}.',
    qrTitle: 'Scannez pour payer avec {wallet}',
    qrHint:
      "Pointez l'appareil photo de votre téléphone vers le code et approuvez le paiement dans {wallet}. Cette page continuera d'elle-même.",
    qrLabel: 'Code QR pour payer avec {wallet} sur votre téléphone',
    cancel: 'Annuler',
    failed: "Ce moyen de paiement n'a pas abouti. Veuillez réessayer ou choisir un autre moyen de paiement.",
    deleteQuestion: 'Supprimer {wallet} ({account}) ?',
    vaultButton: 'Enregistrer {wallet}',
    vaultHint: "{wallet} s'ouvre dans sa propre fenêtre : approuvez-y et {wallet} sera enregistré pour vos prochains paiements.",
    vaultWaiting: 'Terminez dans la fenêtre {wallet}.',
    vaultReady: '{wallet} ({account}) est prêt à être enregistré.',
    saveForLater: 'Enregistrer {wallet} pour mes prochains paiements',
  },
  es: {
    button: 'Pagar con {wallet}',
    hint: '{wallet} se abre en su propia ventana: apruebe allí el pago y su pedido quedará pagado.',
    sheetHint: 'Confirme el pago en {wallet} y su pedido quedará pagado.',
    readyToPay: '{wallet} ({account}) está listo para pagar.',
    waiting: 'Termine el pago en la ventana de {wallet}.',
    sheetWaiting: 'Termine el pago en {wallet}.',
    qrTitle: 'Escanee para pagar con {wallet}',
    qrHint: 'Apunte la cámara de su teléfono al código y apruebe el pago en {wallet}. Esta página continuará sola.',
    qrLabel: 'Código QR para pagar con {wallet} en su teléfono',
    cancel: 'Cancelar',
    failed: 'Esta forma de pago no se ha completado. Vuelva a intentarlo o elija otra forma de pago.',
    deleteQuestion: '¿Eliminar {wallet} ({account})?',
    vaultButton: 'Guardar {wallet}',
    vaultHint: '{wallet} se abre en su propia ventana: apruebe allí y {wallet} quedará guardado para sus próximos pagos.',
    vaultWaiting: 'Termine en la ventana de {wallet}.',
    vaultReady: '{wallet} ({account}) está listo para guardarse.',
    saveForLater: 'Guardar {wallet} para mis próximos pagos',
  },
  ja: {
    button: '{wallet}で支払う',
    hint: '{wallet}が別のウィンドウで開きます。そこでお支払いを承認すると、ご注文のお支払いが完了します。',
    sheetHint: '{wallet}でお支払いを確認すると、ご注文のお支払いが完了します。',
    readyToPay: '{wallet}（{account}）で支払う準備ができました。',
    waiting: '{wallet}のウィンドウでお支払いを完了してください。',
    sheetWaiting: '{wallet}でお支払いを完了してください。',
    qrTitle: 'スキャンして{wallet}で支払う',
    qrHint: 'スマートフォンのカメラをコードに向け、{wallet}でお支払いを承認してください。このページは自動的に進みます。',
    qrLabel: 'スマートフォンの{wallet}で支払うためのQRコード',
    cancel: 'キャンセル',
    failed: 'この支払い方法は完了しませんでした。もう一度お試しいただくか、別の支払い方法を選んでください。',
    deleteQuestion: '{wallet}（{account}）を削除しますか？',
    vaultButton: '{wallet}を保存',
    vaultHint: '{wallet}が別のウィンドウで開きます。そこで承認すると、{wallet}が次回以降のお支払いのために保存されます。',
    vaultWaiting: '{wallet}のウィンドウで手続きを完了してください。',
    vaultReady: '{wallet}（{account}）を保存する準備ができました。',
    saveForLater: '次回以降のお支払いのために{wallet}を保存',
  },
  ar: {
    button: 'ادفع باستخدام {wallet}',
    hint: 'يُفتح {wallet} في نافذة خاصة به: وافق على الدفع هناك وسيُدفع طلبك.',
    sheetHint: 'أكّد الدفع في {wallet} وسيُدفع طلبك.',
    readyToPay: '{wallet} ({account}) جاهز للدفع.',
    waiting: 'أكمل الدفع في نافذة {wallet}.',
    sheetWaiting: 'أكمل الدفع في {wallet}.',
    qrTitle: 'امسح الرمز للدفع باستخدام {wallet}',
    qrHint: 'وجّه كاميرا هاتفك نحو الرمز ووافق على الدفع في {wallet}. ستتابع هذه الصفحة تلقائيًا.',
    qrLabel: 'رمز QR للدفع باستخدام {wallet} على هاتفك',
    cancel: 'إلغاء',
    failed: 'لم تنجح طريقة الدفع هذه. يُرجى المحاولة مرة أخرى أو اختيار طريقة دفع أخرى.',
    deleteQuestion: 'هل تريد حذف {wallet} ({account})؟',
    vaultButton: 'حفظ {wallet}',
    vaultHint: 'يُفتح {wallet} في نافذة خاصة به: وافق هناك وسيُحفظ {wallet} لمدفوعاتك القادمة.',
    vaultWaiting: 'أكمل العملية في نافذة {wallet}.',
    vaultReady: '{wallet} ({account}) جاهز للحفظ.',
    saveForLater: 'حفظ {wallet} لمدفوعاتي القادمة',
  },
};

/**
 * A wallet view's message: the merchant's override (`options.translations['wallet.<key>']`), else this locale's, with
 * the wallet's name and (once approved) the account filled in. The override comes through the checkout's translator
 * `t`, which answers a key outside its catalogue with the override alone (i18n.ts): the wallets' sentences stay out
 * of the card view's catalogue.
 */
export function walletText(t: Translate, locale: Locale, key: WalletMessageKey, wallet: string, account = ''): string {
  const override = (t as unknown as (key: WalletTranslationKey) => string | undefined)(`wallet.${key}`);
  return (override ?? WALLET_MESSAGES[locale][key]).replaceAll('{wallet}', wallet).replaceAll('{account}', account);
}

/** The account a wallet pays with, as the shopper knows it: the PayPal email, the Venmo @name, a phone wallet's card. */
export function walletAccount(result: PaymentMethodResult): string {
  const { email, username, cardType, lastFour } = result.details;
  return email ?? (username !== undefined ? `@${username}` : result.description || `${cardType} ${lastFour}`);
}
