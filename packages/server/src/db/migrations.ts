import { PostgresAdapter, sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';

/** Order numbers start here, so the first receipt does not read "Order 1". */
export const FIRST_ORDER_NUMBER = 1001;

/**
 * Every schema change, in order. The SAME migrations run on SQLite and PostgreSQL: only portable types
 * (text, integer) and portable constraints (unique, partial unique index, foreign keys); one exception, 0017, whose
 * sequence is PostgreSQL's alone, PostgreSQL's storage settings (0020), which change no table's shape, and indexes
 * SQLite's sweeper does without (0022, 0023).
 */
export const migrations: Record<string, Migration> = {
  '0001_initial': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('gateway_customer_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('account_id', 'text', (c) => c.references('accounts.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('products')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('price_amount', 'integer', (c) => c.notNull().check(sql`price_amount > 0`))
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('orders')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('total_amount', 'integer', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('owner_account_id', 'text', (c) => c.references('accounts.id'))
        .addColumn('owner_session_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('orders_owner_session').on('orders').column('owner_session_id').execute();

      await db.schema
        .createTable('order_items')
        .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('product_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('quantity', 'integer', (c) => c.notNull())
        .addColumn('unit_amount', 'integer', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('order_items_pk', ['order_id', 'position'])
        .execute();

      await db.schema
        .createTable('payments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('idempotency_ref', 'text')
        .addColumn('nonce', 'text', (c) => c.notNull())
        .addColumn('device_data', 'text')
        .addColumn('merchant_account_id', 'text')
        .addColumn('transaction_id', 'text')
        .addColumn('card_brand', 'text')
        .addColumn('card_last_four', 'text')
        .addColumn('decline_reason', 'text')
        .addColumn('processor_response_code', 'text')
        .addColumn('processor_response_text', 'text')
        .addColumn('gateway_rejection_reason', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('payments_order').on('payments').column('order_id').execute();
      // The charge-once invariant, enforced by the database rather than a read-then-write: an order has at most
      // one attempt that is running or has succeeded. A second concurrent attempt fails to insert.
      await db.schema
        .createIndex('payments_one_live_per_order')
        .on('payments')
        .column('order_id')
        .unique()
        .where(sql.ref('status'), 'in', ['pending', 'succeeded'])
        .execute();

      await db.schema
        .createTable('idempotency_keys')
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('locked_at', 'text')
        .addColumn('response_status', 'integer')
        .addColumn('response_body', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['scope', 'key'])
        .execute();

      await db.schema
        .createTable('botcheck_uses')
        .addColumn('fingerprint', 'text', (c) => c.primaryKey())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of [
        'botcheck_uses',
        'idempotency_keys',
        'payments',
        'order_items',
        'orders',
        'products',
        'sessions',
        'accounts',
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  },
  '0002_order_numbers': {
    // The number a shopper reads on the receipt ("Order 1001"); the opaque id stays the key and the URL. Numbers
    // come from a counter row incremented inside the order's transaction: portable (no sequence or autoincrement),
    // and PostgreSQL's row lock makes concurrent orders take turns instead of colliding.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('orders').addColumn('number', 'integer').execute();
      // Existing orders get numbers in the order they were made.
      await sql`
        update orders set number = ${FIRST_ORDER_NUMBER - 1} + (
          select count(*) from orders earlier
          where earlier.created_at < orders.created_at or (earlier.created_at = orders.created_at and earlier.id <= orders.id)
        )`.execute(db);
      await db.schema.createIndex('orders_number').on('orders').column('number').unique().execute();
      await db.schema
        .createTable('counters')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'integer', (c) => c.notNull())
        .execute();
      await sql`
        insert into counters (name, value)
        select 'order_number', coalesce(max(number), ${FIRST_ORDER_NUMBER - 1}) from orders`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('counters').execute();
      await db.schema.dropIndex('orders_number').execute();
      await db.schema.alterTable('orders').dropColumn('number').execute();
    },
  },
  '0003_velocity': {
    // Counted events for the velocity rules (src/velocity/): in the database, so that every server instance counts
    // the same attempts. The index serves the one query the rules make: events of one action and subject since a time.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('velocity_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('dimension', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('detail', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('velocity_events_lookup')
        .on('velocity_events')
        .columns(['action', 'dimension', 'subject', 'created_at'])
        .execute();
      await db.schema.createIndex('velocity_events_age').on('velocity_events').column('created_at').execute();
      // What the merchant reviews: every refusal, with the rule and the subject it counted.
      await db.schema
        .createTable('velocity_refusals')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('rule', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('dimension', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('velocity_refusals_age').on('velocity_refusals').column('created_at').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('velocity_refusals').execute();
      await db.schema.dropTable('velocity_events').execute();
    },
  },
  '0004_plans_and_saved_cards': {
    // Subscription plans are part of the catalogue (the gateway bills them; the catalogue names and prices them for
    // the shop). A payment attempt that saves its card keeps the gateway customer it saves it for, so a resent sale
    // is the same request.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('plans')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('price_amount', 'integer', (c) => c.notNull().check(sql`price_amount > 0`))
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('billing_frequency_months', 'integer', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.alterTable('payments').addColumn('vault_customer_id', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('payments').dropColumn('vault_customer_id').execute();
      await db.schema.dropTable('plans').execute();
    },
  },
  '0005_admin': {
    // The merchant's side. Every admin request leaves a row in admin_audit_log (who, what, on what, when, answer).
    // The payments list filters and pages on indexed columns, newest first: (created_at, id) is the cursor.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('admin_audit_log')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('actor_account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target_id', 'text')
        .addColumn('detail', 'text')
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('admin_audit_log_created').on('admin_audit_log').columns(['created_at', 'id']).execute();
      await db.schema.createIndex('admin_audit_log_target').on('admin_audit_log').columns(['target_id', 'created_at']).execute();
      // What kind of payment method paid (the gateway's paymentInstrumentType: credit_card, paypal_account, ...).
      await db.schema.alterTable('payments').addColumn('payment_method_type', 'text').execute();
      await db.schema.createIndex('payments_created').on('payments').columns(['created_at', 'id']).execute();
      await db.schema.createIndex('payments_status_created').on('payments').columns(['status', 'created_at', 'id']).execute();
      await db.schema
        .createIndex('payments_last_four_created')
        .on('payments')
        .columns(['card_last_four', 'created_at', 'id'])
        .execute();
      await db.schema.createIndex('orders_owner_account').on('orders').column('owner_account_id').execute();
    },
    async down(db: Kysely<unknown>) {
      for (const index of ['orders_owner_account', 'payments_last_four_created', 'payments_status_created', 'payments_created']) {
        await db.schema.dropIndex(index).execute();
      }
      await db.schema.alterTable('payments').dropColumn('payment_method_type').execute();
      await db.schema.dropTable('admin_audit_log').execute();
    },
  },
  '0006_gateway_webhooks': {
    // The gateway's webhook notifications, each recorded once under an id derived from what it says (kind, subject,
    // the gateway's timestamp): the insert that claims a notification is the replay guard on both engines, so a
    // notification delivered twice, or twice at once, is acted on once. What they report is kept beside the payment
    // (its settlement), per subscription (its last reported status) and per dispute.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('webhook_notifications')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'text', (c) => c.notNull())
        .addColumn('notified_at', 'text', (c) => c.notNull())
        .addColumn('received_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhook_notifications_subject').on('webhook_notifications').column('subject_id').execute();
      await db.schema.alterTable('payments').addColumn('settlement_status', 'text').execute();
      await db.schema.alterTable('payments').addColumn('settlement_status_at', 'text').execute();
      await db.schema.createIndex('payments_transaction').on('payments').column('transaction_id').execute();
      await db.schema
        .createTable('subscription_states')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('plan_id', 'text')
        .addColumn('status', 'text')
        .addColumn('next_billing_date', 'text')
        .addColumn('failure_count', 'integer')
        .addColumn('last_event', 'text', (c) => c.notNull())
        .addColumn('notified_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('disputes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('transaction_id', 'text', (c) => c.notNull())
        .addColumn('payment_id', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('notified_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('disputes_payment').on('disputes').column('payment_id').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('disputes').execute();
      await db.schema.dropTable('subscription_states').execute();
      await db.schema.dropIndex('payments_transaction').execute();
      await db.schema.alterTable('payments').dropColumn('settlement_status_at').execute();
      await db.schema.alterTable('payments').dropColumn('settlement_status').execute();
      await db.schema.dropTable('webhook_notifications').execute();
    },
  },
  '0007_refunds': {
    // What the merchant gave back of a payment: one row per refund (a credit transaction at the gateway) or void. The
    // Idempotency-Key that asked for it is unique per payment, so a retry finds its refund instead of making another.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('refunds')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('payment_id', 'text', (c) => c.notNull().references('payments.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount > 0`))
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('transaction_id', 'text')
        .addColumn('idempotency_ref', 'text', (c) => c.notNull())
        .addColumn('actor_account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('refunds_payment_request')
        .on('refunds')
        .columns(['payment_id', 'idempotency_ref'])
        .unique()
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('refunds').execute();
    },
  },
  '0008_three_d_secure': {
    // The 3-D Secure outcome each attempt's transaction recorded, and whether the sale required a liability shift
    // (kept on the attempt so a resend is the same request). Flags are integers 0/1 on both databases.
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('payments')
        .addColumn('three_d_secure_required', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('payments').addColumn('three_d_secure_status', 'text').execute();
      await db.schema.alterTable('payments').addColumn('liability_shifted', 'integer').execute();
      await db.schema.alterTable('payments').addColumn('liability_shift_possible', 'integer').execute();
    },
    async down(db: Kysely<unknown>) {
      for (const column of [
        'liability_shift_possible',
        'liability_shifted',
        'three_d_secure_status',
        'three_d_secure_required',
      ]) {
        await db.schema.alterTable('payments').dropColumn(column).execute();
      }
    },
  },
  '0009_dashboard': {
    // The dashboard's lists: payments sorted by amount (keyset over (amount, created_at, id), like the date order of
    // 0005_admin), customers and disputes newest first.
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('payments_amount_created').on('payments').columns(['amount', 'created_at', 'id']).execute();
      await db.schema.createIndex('accounts_created').on('accounts').columns(['created_at', 'id']).execute();
      await db.schema.createIndex('disputes_notified').on('disputes').columns(['notified_at', 'id']).execute();
    },
    async down(db: Kysely<unknown>) {
      for (const index of ['disputes_notified', 'accounts_created', 'payments_amount_created'])
        await db.schema.dropIndex(index).execute();
    },
  },
  '0010_refusal_reasons': {
    // Bot-check refusals join the velocity rules' in velocity_refusals (rule `botcheck_failed`), with their reason
    // (expired, already used, provider unavailable, ...); the merchant's list reads them newest first.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('velocity_refusals').addColumn('reason', 'text').execute();
      await db.schema.createIndex('velocity_refusals_listed').on('velocity_refusals').columns(['created_at', 'id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('velocity_refusals_listed').execute();
      await db.schema.alterTable('velocity_refusals').dropColumn('reason').execute();
    },
  },
  '0011_sign_up_by_mail': {
    // Sign-up answers the same whether or not the email has an account and finishes by mail (issue 9): a sign-up
    // waits in `sign_ups` until its link is followed; every mail goes through `mail_outbox`, sent by the mail job.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('sign_ups')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('mail_outbox')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('claimed_at', 'text')
        .addColumn('sent_at', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_error', 'text')
        .execute();
      await db.schema.createIndex('mail_outbox_unsent').on('mail_outbox').columns(['sent_at', 'created_at']).execute();
      await db.schema.createIndex('mail_outbox_recipient').on('mail_outbox').columns(['recipient', 'created_at']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('mail_outbox').execute();
      await db.schema.dropTable('sign_ups').execute();
    },
  },
  '0012_sweeps_and_shared_rate_limits': {
    // The sweeper (src/jobs/sweeper.ts) deletes by age: each table it sweeps gets the index its condition reads, so a
    // sweep never scans. Rate limits count in the database (src/plugins/rate-limit-store.ts), so that every instance
    // enforces one limit: one row per route and client per window, its hits incremented in place.
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();
      await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
      await db.schema.createIndex('botcheck_uses_expires').on('botcheck_uses').column('expires_at').execute();
      await db.schema
        .createTable('rate_limit_hits')
        .addColumn('bucket', 'text', (c) => c.notNull())
        .addColumn('window_ends_at', 'text', (c) => c.notNull())
        .addColumn('hits', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('rate_limit_hits_pk', ['bucket', 'window_ends_at'])
        .execute();
      await db.schema.createIndex('rate_limit_hits_ends').on('rate_limit_hits').column('window_ends_at').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('rate_limit_hits').execute();
      for (const index of ['botcheck_uses_expires', 'idempotency_keys_created', 'sessions_expires'])
        await db.schema.dropIndex(index).execute();
    },
  },
  '0013_velocity_counts': {
    // The velocity rules count per minute instead of per event (issue 10): counting an hour read every event of the
    // subject in it, so a busy address made every count slower. Events already counted become their minutes' counts.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('velocity_counts')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('dimension', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('minute', 'text', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        // The rules' one lookup: a subject's counts of an action from a minute on.
        .addPrimaryKeyConstraint('velocity_counts_key', ['action', 'dimension', 'subject', 'minute', 'detail'])
        .execute();
      await db.schema.createIndex('velocity_counts_age').on('velocity_counts').column('minute').execute();
      await sql`INSERT INTO velocity_counts (action, dimension, subject, minute, detail, count)
        SELECT action, dimension, subject, substr(created_at, 1, 16) || ':00.000Z', coalesce(detail, ''), count(*)
        FROM velocity_events GROUP BY action, dimension, subject, substr(created_at, 1, 16), coalesce(detail, '')`.execute(db);
      await db.schema.dropTable('velocity_events').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema
        .createTable('velocity_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('dimension', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('detail', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('velocity_events_lookup')
        .on('velocity_events')
        .columns(['action', 'dimension', 'subject', 'created_at'])
        .execute();
      await db.schema.createIndex('velocity_events_age').on('velocity_events').column('created_at').execute();
      await db.schema.dropTable('velocity_counts').execute();
    },
  },
  '0014_sign_ups_expiry': {
    // Expired pending sign-ups are deleted by the sweeper (src/jobs/sweeper.ts) instead of by each sign-up request.
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('sign_ups_expires').on('sign_ups').column('expires_at').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('sign_ups_expires').execute();
    },
  },
  '0015_disputes_by_transaction': {
    // A dispute names its payment by the gateway's transaction id, joined when read: the dispute's webhook can come
    // before the shop has written the sale's transaction id (the sandbox sends it as the sale settles), and a payment
    // id looked up when the webhook came stayed empty for good.
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('disputes_payment').execute();
      await db.schema.alterTable('disputes').dropColumn('payment_id').execute();
      await db.schema.createIndex('disputes_transaction').on('disputes').column('transaction_id').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('disputes_transaction').execute();
      await db.schema.alterTable('disputes').addColumn('payment_id', 'text').execute();
      await sql`UPDATE disputes SET payment_id = (SELECT id FROM payments WHERE payments.transaction_id = disputes.transaction_id)`.execute(
        db,
      );
      await db.schema.createIndex('disputes_payment').on('disputes').column('payment_id').execute();
    },
  },
  '0016_attempt_velocity_subjects': {
    // What a pending attempt's outcome is counted against by the velocity rules (its payer, and its card as keyed
    // hashes and BIN), kept from its insert until its outcome is recorded: a request or the reconciler finishing an
    // attempt whose answer was lost counts its decline against the card too, not only what that request knows.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('payments').addColumn('velocity_subjects', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('payments').dropColumn('velocity_subjects').execute();
    },
  },
  '0017_order_number_sequence': {
    // PostgreSQL takes order numbers from a sequence instead of the counter row: each order's transaction held the
    // row's lock until its commit was flushed, so every order of the shop waited for the one before (55-63 ms each
    // with 16 orders made at once, issue 10). nextval holds no lock; the numbers still grow in the order they are
    // taken, but one taken by an order whose insert failed is not given back (a gap). SQLite keeps the counter: its
    // one writer serializes the orders anyway, and its commit waits for no flush (orders.repository.ts insertOrder).
    async up(db: Kysely<unknown>) {
      if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
      await sql`create sequence order_numbers as integer`.execute(db);
      await sql`select setval('order_numbers', value) from counters where name = 'order_number'`.execute(db);
      await sql`delete from counters where name = 'order_number'`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
      await sql`
        insert into counters (name, value)
        select 'order_number', coalesce(max(number), ${FIRST_ORDER_NUMBER - 1}) from orders`.execute(db);
      await sql`drop sequence order_numbers`.execute(db);
    },
  },
  '0018_payments_created_amount': {
    // The payments list filtered by an amount range, newest or oldest first, walks the date order and tests the amount
    // in this index, reading a payment's row only when it is in the range: with (created_at, id) alone the walk read
    // every row it passed, so SQLite chose the amount index instead and sorted the whole range (80-900 ms at 100,000
    // payments, admin/payments.query.ts). It replaces 0005_admin's payments_created, a prefix of it.
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('payments_created_amount').on('payments').columns(['created_at', 'id', 'amount']).execute();
      await db.schema.dropIndex('payments_created').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.createIndex('payments_created').on('payments').columns(['created_at', 'id']).execute();
      await db.schema.dropIndex('payments_created_amount').execute();
    },
  },
  '0019_payments_outcome_indexes_partial': {
    // The gateway's transaction id and the card's last four digits come with an attempt's outcome: a pending attempt
    // (and a failed one, which has neither) put a null key in these indexes at its insert, which the outcome then took
    // out again, a page more in the log for each at the attempt's commit and at its outcome's (issue 10, sqlite8).
    // Their queries look for a value (`= ?`, the disputes' join), which both engines' planners read as `is not null`.
    async up(db: Kysely<unknown>) {
      for (const { index, columns } of OUTCOME_INDEXES) {
        await db.schema.dropIndex(index).execute();
        await db.schema.createIndex(index).on('payments').columns(columns).where(columns[0], 'is not', null).execute();
      }
    },
    async down(db: Kysely<unknown>) {
      for (const { index, columns } of OUTCOME_INDEXES) {
        await db.schema.dropIndex(index).execute();
        await db.schema.createIndex(index).on('payments').columns(columns).execute();
      }
    },
  },
  '0020_idempotency_answers_in_place': {
    // PostgreSQL writes a key's answer (about 1.1 KB, onto a claim of about 200 bytes) as a HOT update, with no index
    // entry, only when the claim's page has room for it: filled by claims to the brim, 73-75% of the answers went to
    // another page and wrote both of the key's index entries again (issue 10, pg8). Claims now fill a tenth of a page,
    // leaving the rest to their answers. The price is room: 800 keys claimed and answered 16 at a time took 300 pages
    // against 137 before (review8's measure), for the 48 hours a key is kept. New pages only; SQLite updates a row in
    // place and has no such setting.
    async up(db: Kysely<unknown>) {
      if (db.getExecutor().adapter instanceof PostgresAdapter)
        await sql`alter table idempotency_keys set (fillfactor = 10)`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (db.getExecutor().adapter instanceof PostgresAdapter)
        await sql`alter table idempotency_keys reset (fillfactor)`.execute(db);
    },
  },
  '0021_payments_order_one_index': {
    // An order's attempts and its one live attempt (pending or succeeded: 0001's charge-once invariant) in one unique
    // index, (order_id, '' for a live attempt, else its own id), instead of 0001's two: each attempt's insert wrote an
    // entry to both, and each charge's outcome another to both (issue 10, pg8). An order's attempts are found by its
    // first column as before, and a second live attempt of an order fails to insert as before.
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('payments_one_live_per_order').execute();
      await db.schema.dropIndex('payments_order').execute();
      await sql`create unique index payments_order
        on payments (order_id, (case when status in ('pending', 'succeeded') then '' else id end))`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('payments_order').execute();
      await db.schema.createIndex('payments_order').on('payments').column('order_id').execute();
      await db.schema
        .createIndex('payments_one_live_per_order')
        .on('payments')
        .column('order_id')
        .unique()
        .where(sql.ref('status'), 'in', ['pending', 'succeeded'])
        .execute();
    },
  },
  '0022_velocity_counts_swept_by_rowid': {
    // On SQLite the sweeper finds expired counts by their rowids, which grow with the minute a count is first written
    // in (jobs/sweeper.ts), so the index of their minutes went: every new count wrote an entry to it, and its page to
    // the log at each commit (issue 10, cpu12). PostgreSQL keeps it: its rows have no order of insertion to read.
    async up(db: Kysely<unknown>) {
      if (!(db.getExecutor().adapter instanceof PostgresAdapter)) await db.schema.dropIndex('velocity_counts_age').execute();
    },
    async down(db: Kysely<unknown>) {
      if (!(db.getExecutor().adapter instanceof PostgresAdapter))
        await db.schema.createIndex('velocity_counts_age').on('velocity_counts').column('minute').execute();
    },
  },
  '0023_sqlite_sweeper_indexes_dropped': {
    // Indexes only SQLite's sweeper read, each written by every payment (a key, a spent token) or refusal (issue 10,
    // cpu13). It finds old Idempotency-Keys and spent bot-check tokens by rowid, as 0022's counts (jobs/sweeper.ts), and
    // old refusals by the refusals page's index, (created_at, id), which it read already. PostgreSQL keeps them: its
    // rows have no order of insertion, and without velocity_refusals_age its plan of a backlog's sweep is a table scan.
    async up(db: Kysely<unknown>) {
      if (!(db.getExecutor().adapter instanceof PostgresAdapter))
        for (const { index } of SQLITE_DROPPED) await db.schema.dropIndex(index).execute();
    },
    async down(db: Kysely<unknown>) {
      if (!(db.getExecutor().adapter instanceof PostgresAdapter))
        for (const { index, table, column } of SQLITE_DROPPED)
          await db.schema.createIndex(index).on(table).column(column).execute();
    },
  },
};

/** The indexes 0023 drops on SQLite: 0012's and 0003's. */
const SQLITE_DROPPED = [
  { index: 'idempotency_keys_created', table: 'idempotency_keys', column: 'created_at' },
  { index: 'botcheck_uses_expires', table: 'botcheck_uses', column: 'expires_at' },
  { index: 'velocity_refusals_age', table: 'velocity_refusals', column: 'created_at' },
] as const;

/** 0019's indexes of what an attempt's outcome tells, led by the column that is null until then. */
const OUTCOME_INDEXES: ReadonlyArray<{ index: string; columns: [string, ...string[]] }> = [
  { index: 'payments_transaction', columns: ['transaction_id'] },
  { index: 'payments_last_four_created', columns: ['card_last_four', 'created_at', 'id'] },
];
