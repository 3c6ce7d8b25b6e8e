// The plain checkout page's own words (its heading, the Pay button, what it says about the server's answers) in every
// locale the checkout speaks, so the page and the sheet inside it use one language. English is the web app's
// catalogue (src/i18n/messages.ts); every other locale is a full table of the sentences the page can show.
import type { Locale } from '@kassa/checkout/dropin';
import type { Decline } from '../api/types.ts';
import { declineMessage, messages, problemMessage } from '../i18n/messages.ts';

export interface PlainWords {
  readonly title: string;
  documentTitle(page: string): string;
  pay(amount: string): string;
  readonly checkingYouAreHuman: string;
  /** The sentence for a problem code the server (or the bot-check) answered; `decline` for a declined payment. */
  problem(code: string, decline?: Decline): string;
}

/** The problem codes this page meets: loading the order, the bot-check, and the form post's answers. */
type PageProblem =
  | 'order_not_found'
  | 'order_already_paid'
  | 'botcheck_failed'
  | 'botcheck_anchor_timeout'
  | 'botcheck_execute_timeout'
  | 'botcheck_unavailable'
  | 'payment_in_progress'
  | 'gateway_unavailable'
  | 'rate_limited'
  | 'too_many_attempts'
  | 'three_d_secure_required'
  | 'network_error';

/** A locale's sentences; `{page}`, `{amount}` and `{reason}` are filled in. */
interface Table {
  readonly title: string;
  readonly documentTitle: string;
  readonly pay: string;
  readonly checkingYouAreHuman: string;
  readonly declined: string;
  readonly declinedNoReason: string;
  readonly processorUnavailable: string;
  readonly currencyMismatch: string;
  readonly refused: string;
  /** Any other problem. */
  readonly unexpected: string;
  readonly problems: Readonly<Record<PageProblem, string>>;
}

const TABLES: Readonly<Record<Exclude<Locale, 'en'>, Table>> = {
  de: {
    title: 'Kasse',
    documentTitle: '{page} · Kassa Coffee',
    pay: '{amount} bezahlen',
    checkingYouAreHuman: 'Wir prüfen, dass Sie kein Bot sind…',
    declined: 'Ihre Karte wurde abgelehnt ({reason}). Bitte versuchen Sie es mit einer anderen Karte.',
    declinedNoReason: 'Ihre Karte wurde abgelehnt. Bitte versuchen Sie es mit einer anderen Karte.',
    processorUnavailable:
      'Das Kartennetzwerk war nicht erreichbar. Es wurde kein Geld abgebucht. Bitte versuchen Sie es gleich noch einmal.',
    currencyMismatch:
      'Dieser Shop kann gerade keine Kartenzahlungen annehmen. Es wurde kein Geld abgebucht. Bitte versuchen Sie es später erneut.',
    refused: 'Die Zahlung wurde abgelehnt. Bitte versuchen Sie es mit einer anderen Karte.',
    unexpected: 'Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.',
    problems: {
      order_not_found: 'Wir konnten diese Bestellung nicht finden.',
      order_already_paid: 'Diese Bestellung ist bereits bezahlt.',
      botcheck_failed: 'Wir konnten nicht bestätigen, dass Sie kein Bot sind. Bitte versuchen Sie es erneut.',
      botcheck_anchor_timeout: 'Die Bot-Prüfung wurde nicht rechtzeitig geladen. Bitte versuchen Sie es erneut.',
      botcheck_execute_timeout: 'Die Bot-Prüfung hat zu lange gedauert. Bitte versuchen Sie es erneut.',
      botcheck_unavailable: 'Die Bot-Prüfung ist gerade nicht verfügbar. Bitte versuchen Sie es erneut.',
      payment_in_progress:
        'Ihre Zahlung wird noch bearbeitet. Bitte warten Sie einen Moment und drücken Sie dann erneut auf „Bezahlen“.',
      gateway_unavailable:
        'Der Zahlungsdienst hat nicht geantwortet. Drücken Sie erneut auf „Bezahlen“: Es wird nicht doppelt abgebucht.',
      rate_limited: 'Zu viele Versuche. Bitte warten Sie eine Minute und versuchen Sie es erneut.',
      too_many_attempts: 'Zu viele Versuche von hier. Bitte warten Sie eine Weile, bevor Sie es erneut versuchen.',
      three_d_secure_required:
        'Ihre Bank muss diese Zahlung bestätigen (3-D Secure). Bitte geben Sie Ihre Karte erneut ein oder verwenden Sie eine andere Karte.',
      network_error: 'Netzwerkfehler. Bitte versuchen Sie es erneut.',
    },
  },
  fr: {
    title: 'Paiement',
    documentTitle: '{page} · Kassa Coffee',
    pay: 'Payer {amount}',
    checkingYouAreHuman: 'Nous vérifions que vous n’êtes pas un robot…',
    declined: 'Votre carte a été refusée ({reason}). Veuillez essayer une autre carte.',
    declinedNoReason: 'Votre carte a été refusée. Veuillez essayer une autre carte.',
    processorUnavailable:
      'Le réseau de cartes n’a pas pu être joint. Aucun montant n’a été débité. Veuillez réessayer dans un instant.',
    currencyMismatch:
      'Cette boutique ne peut pas accepter de paiement par carte pour le moment. Aucun montant n’a été débité. Veuillez réessayer plus tard.',
    refused: 'Le paiement a été refusé. Veuillez essayer une autre carte.',
    unexpected: 'Une erreur s’est produite. Veuillez réessayer.',
    problems: {
      order_not_found: 'Nous n’avons pas trouvé cette commande.',
      order_already_paid: 'Cette commande est déjà payée.',
      botcheck_failed: 'Nous n’avons pas pu confirmer que vous n’êtes pas un robot. Veuillez réessayer.',
      botcheck_anchor_timeout: 'La vérification anti-robot ne s’est pas chargée à temps. Veuillez réessayer.',
      botcheck_execute_timeout: 'La vérification anti-robot a pris trop de temps. Veuillez réessayer.',
      botcheck_unavailable: 'La vérification anti-robot est indisponible pour le moment. Veuillez réessayer.',
      payment_in_progress:
        'Votre paiement est encore en cours de traitement. Patientez un instant, puis appuyez de nouveau sur Payer.',
      gateway_unavailable:
        'Le service de paiement n’a pas répondu. Appuyez de nouveau sur Payer : vous ne serez pas débité deux fois.',
      rate_limited: 'Trop de tentatives. Veuillez patienter une minute et réessayer.',
      too_many_attempts: 'Trop de tentatives depuis cet appareil. Veuillez patienter un moment avant de réessayer.',
      three_d_secure_required:
        'Votre banque doit confirmer ce paiement (3-D Secure). Veuillez saisir à nouveau votre carte ou utiliser une autre carte.',
      network_error: 'Erreur réseau. Veuillez réessayer.',
    },
  },
  es: {
    title: 'Pago',
    documentTitle: '{page} · Kassa Coffee',
    pay: 'Pagar {amount}',
    checkingYouAreHuman: 'Comprobando que no es un bot…',
    declined: 'Su tarjeta fue rechazada ({reason}). Pruebe con otra tarjeta.',
    declinedNoReason: 'Su tarjeta fue rechazada. Pruebe con otra tarjeta.',
    processorUnavailable:
      'No se pudo contactar con la red de tarjetas. No se ha cobrado nada. Vuelva a intentarlo en un momento.',
    currencyMismatch:
      'Esta tienda no puede aceptar pagos con tarjeta en este momento. No se ha cobrado nada. Vuelva a intentarlo más tarde.',
    refused: 'El pago fue rechazado. Pruebe con otra tarjeta.',
    unexpected: 'Algo salió mal. Vuelva a intentarlo.',
    problems: {
      order_not_found: 'No hemos encontrado este pedido.',
      order_already_paid: 'Este pedido ya está pagado.',
      botcheck_failed: 'No hemos podido confirmar que no es un bot. Vuelva a intentarlo.',
      botcheck_anchor_timeout: 'La verificación antibots no se cargó a tiempo. Vuelva a intentarlo.',
      botcheck_execute_timeout: 'La verificación antibots tardó demasiado. Vuelva a intentarlo.',
      botcheck_unavailable: 'La verificación antibots no está disponible ahora mismo. Vuelva a intentarlo.',
      payment_in_progress: 'Su pago aún se está procesando. Espere un momento y vuelva a pulsar Pagar.',
      gateway_unavailable: 'El servicio de pago no respondió. Vuelva a pulsar Pagar: no se le cobrará dos veces.',
      rate_limited: 'Demasiados intentos. Espere un minuto y vuelva a intentarlo.',
      too_many_attempts: 'Demasiados intentos desde aquí. Espere un rato antes de volver a intentarlo.',
      three_d_secure_required:
        'Su banco tiene que confirmar este pago (3-D Secure). Vuelva a introducir su tarjeta o use otra tarjeta.',
      network_error: 'Error de red. Vuelva a intentarlo.',
    },
  },
  ja: {
    title: 'お支払い',
    documentTitle: '{page} · Kassa Coffee',
    pay: '{amount}を支払う',
    checkingYouAreHuman: 'ボットでないことを確認しています…',
    declined: 'カードが拒否されました（{reason}）。別のカードをお試しください。',
    declinedNoReason: 'カードが拒否されました。別のカードをお試しください。',
    processorUnavailable:
      'カードネットワークに接続できませんでした。代金は引き落とされていません。しばらくしてからもう一度お試しください。',
    currencyMismatch:
      '現在このショップではカード払いをご利用いただけません。代金は引き落とされていません。後でもう一度お試しください。',
    refused: 'お支払いが拒否されました。別のカードをお試しください。',
    unexpected: '問題が発生しました。もう一度お試しください。',
    problems: {
      order_not_found: 'このご注文が見つかりませんでした。',
      order_already_paid: 'このご注文はお支払い済みです。',
      botcheck_failed: 'ボットでないことを確認できませんでした。もう一度お試しください。',
      botcheck_anchor_timeout: 'ボット確認が時間内に読み込まれませんでした。もう一度お試しください。',
      botcheck_execute_timeout: 'ボット確認に時間がかかりすぎました。もう一度お試しください。',
      botcheck_unavailable: 'ボット確認は現在ご利用いただけません。もう一度お試しください。',
      payment_in_progress: 'お支払いはまだ処理中です。しばらく待ってから、もう一度「支払う」を押してください。',
      gateway_unavailable:
        '決済サービスから応答がありませんでした。もう一度「支払う」を押してください。二重に請求されることはありません。',
      rate_limited: '試行回数が多すぎます。1分ほど待ってからもう一度お試しください。',
      too_many_attempts: 'この端末からの試行回数が多すぎます。しばらく待ってから再度お試しください。',
      three_d_secure_required:
        'このお支払いにはカード会社による確認（3-D Secure）が必要です。カード情報を再入力するか、別のカードをご利用ください。',
      network_error: 'ネットワークエラーが発生しました。もう一度お試しください。',
    },
  },
  ar: {
    title: 'الدفع',
    documentTitle: '{page} · Kassa Coffee',
    pay: 'ادفع {amount}',
    checkingYouAreHuman: 'نتحقق من أنك لست روبوتًا…',
    declined: 'رُفضت بطاقتك ({reason}). يُرجى تجربة بطاقة أخرى.',
    declinedNoReason: 'رُفضت بطاقتك. يُرجى تجربة بطاقة أخرى.',
    processorUnavailable: 'تعذّر الوصول إلى شبكة البطاقات. لم يُخصم أي مبلغ. يُرجى المحاولة مرة أخرى بعد قليل.',
    currencyMismatch: 'لا يمكن لهذا المتجر قبول الدفع بالبطاقة حاليًا. لم يُخصم أي مبلغ. يُرجى المحاولة لاحقًا.',
    refused: 'رُفض الدفع. يُرجى تجربة بطاقة أخرى.',
    unexpected: 'حدث خطأ ما. يُرجى المحاولة مرة أخرى.',
    problems: {
      order_not_found: 'لم نعثر على هذا الطلب.',
      order_already_paid: 'تم دفع هذا الطلب بالفعل.',
      botcheck_failed: 'لم نتمكن من التأكد من أنك لست روبوتًا. يُرجى المحاولة مرة أخرى.',
      botcheck_anchor_timeout: 'لم يُحمَّل التحقق من الروبوتات في الوقت المحدد. يُرجى المحاولة مرة أخرى.',
      botcheck_execute_timeout: 'استغرق التحقق من الروبوتات وقتًا طويلاً. يُرجى المحاولة مرة أخرى.',
      botcheck_unavailable: 'التحقق من الروبوتات غير متاح حاليًا. يُرجى المحاولة مرة أخرى.',
      payment_in_progress: 'لا تزال عملية الدفع قيد المعالجة. يُرجى الانتظار قليلاً ثم الضغط على «ادفع» مرة أخرى.',
      gateway_unavailable: 'لم تستجب خدمة الدفع. اضغط على «ادفع» مرة أخرى: لن يُخصم المبلغ مرتين.',
      rate_limited: 'محاولات كثيرة جدًا. يُرجى الانتظار دقيقة ثم المحاولة مرة أخرى.',
      too_many_attempts: 'محاولات كثيرة جدًا من هذا الجهاز. يُرجى الانتظار بعض الوقت قبل المحاولة مرة أخرى.',
      three_d_secure_required: 'يجب أن يؤكد مصرفك هذه الدفعة (3-D Secure). يُرجى إدخال بطاقتك مرة أخرى أو استخدام بطاقة أخرى.',
      network_error: 'خطأ في الشبكة. يُرجى المحاولة مرة أخرى.',
    },
  },
};

/** The server's other name for a payment still being processed (a retried form post). */
const SAME_AS: Readonly<Record<string, PageProblem>> = { idempotency_key_in_use: 'payment_in_progress' };

const fill = (sentence: string, values: Readonly<Record<string, string>>): string =>
  sentence.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);

function isPageProblem(code: string, table: Table): code is PageProblem {
  return Object.hasOwn(table.problems, code);
}

function declined(table: Table, decline: Decline | undefined): string {
  switch (decline?.reason) {
    case 'processor_declined':
      // The processor's own words (e.g. "Do Not Honor") come from the gateway as they are.
      return decline.processorResponseText
        ? fill(table.declined, { reason: decline.processorResponseText })
        : table.declinedNoReason;
    case 'processor_unavailable':
      return table.processorUnavailable;
    case 'currency_mismatch':
      return table.currencyMismatch;
    default:
      return table.refused;
  }
}

const ENGLISH: PlainWords = {
  title: messages.checkoutTitle,
  documentTitle: messages.documentTitle,
  pay: messages.pay,
  checkingYouAreHuman: messages.checkingYouAreHuman,
  problem: (code, decline) => (code === 'payment_declined' ? declineMessage(decline) : problemMessage({ status: 0, code })),
};

/** The page's words in a locale the checkout speaks. */
export function plainWords(locale: Locale): PlainWords {
  if (locale === 'en') return ENGLISH;
  const table = TABLES[locale];
  return {
    title: table.title,
    documentTitle: (page) => fill(table.documentTitle, { page }),
    pay: (amount) => fill(table.pay, { amount }),
    checkingYouAreHuman: table.checkingYouAreHuman,
    problem: (code, decline) => {
      if (code === 'payment_declined') return declined(table, decline);
      const known = SAME_AS[code] ?? code;
      return isPageProblem(known, table) ? table.problems[known] : table.unexpected;
    },
  };
}
