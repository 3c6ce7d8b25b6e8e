import { randomId } from './ids.ts';
import { invalid, validationError } from './errors.ts';
import type { Outcome, ValidationError } from './errors.ts';
import type { Collection } from '../store/store.ts';

export interface Customer {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  company: string | null;
  phone: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface CustomerInput {
  id?: unknown;
  firstName?: unknown;
  lastName?: unknown;
  email?: unknown;
  company?: unknown;
  phone?: unknown;
}

const CUSTOMER = ['customer'] as const;
const CUSTOMER_ID = /^[A-Za-z0-9_-]{1,36}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function optionalText(
  value: unknown,
  attribute: string,
  maxLength: number,
  code: string,
  label: string,
  errors: ValidationError[],
): string | null {
  if (value === undefined || value === null || value === '') return null;
  const text = String(value);
  if (text.length > maxLength) {
    errors.push(validationError(CUSTOMER, attribute, code, `${label} is too long.`));
    return null;
  }
  return text;
}

type ContactFields = Pick<Customer, 'firstName' | 'lastName' | 'email' | 'company' | 'phone'>;
const NO_CONTACT: ContactFields = { firstName: null, lastName: null, email: null, company: null, phone: null };

/** The contact fields of `input`, each validated; a field not given keeps its `current` value. */
function contactFields(input: CustomerInput, current: ContactFields, errors: ValidationError[]): ContactFields {
  const field = (value: unknown, kept: string | null, attribute: string, code: string, label: string) =>
    value === undefined ? kept : optionalText(value, attribute, 255, code, label, errors);
  const email = field(input.email, current.email, 'email', '81605', 'Email');
  if (email !== null && !EMAIL.test(email)) {
    errors.push(validationError(CUSTOMER, 'email', '81604', 'Email is an invalid format.'));
  }
  return {
    firstName: field(input.firstName, current.firstName, 'first_name', '81608', 'First name'),
    lastName: field(input.lastName, current.lastName, 'last_name', '81613', 'Last name'),
    email,
    company: field(input.company, current.company, 'company', '81601', 'Company'),
    phone: field(input.phone, current.phone, 'phone', '81615', 'Phone'),
  };
}

export class Customers {
  constructor(private readonly records: Collection<Customer>) {}

  create(input: CustomerInput, now: Date): Outcome<Customer> {
    const built = this.build(input, now);
    if (built.ok) this.save(built.value);
    return built;
  }

  /** A validated customer, not stored yet (customer.create with a card stores it only once the card is saved). */
  build(input: CustomerInput, now: Date): Outcome<Customer> {
    const errors: ValidationError[] = [];
    let id: string;
    if (input.id === undefined || input.id === null || input.id === '') {
      id = this.freshId();
    } else {
      id = String(input.id);
      if (!CUSTOMER_ID.test(id)) {
        errors.push(validationError(CUSTOMER, 'id', '91610', 'Customer ID is invalid.'));
      } else if (this.records.has(id)) {
        errors.push(validationError(CUSTOMER, 'id', '91609', 'Customer ID has already been taken.'));
      }
    }
    const contact = contactFields(input, NO_CONTACT, errors);
    if (errors.length > 0) return invalid(errors);
    return { ok: true, value: { id, ...contact, createdAt: now, updatedAt: now } };
  }

  /** A customer with no details and a fresh id (storeInVaultOnSuccess without a customer), not stored yet. */
  blank(now: Date): Customer {
    return { id: this.freshId(), ...NO_CONTACT, createdAt: now, updatedAt: now };
  }

  private freshId(): string {
    // The provider generates numeric-looking ids; any id matching the path rule works the same.
    let id: string;
    do id = randomId(9);
    while (this.records.has(id));
    return id;
  }

  save(customer: Customer): void {
    this.records.set(customer.id, customer);
  }

  /** customer.update: the fields given replace the stored ones (the id stays), validated as on create. */
  update(customer: Customer, input: CustomerInput, now: Date): Outcome<Customer> {
    const errors: ValidationError[] = [];
    const contact = contactFields(input, customer, errors);
    if (errors.length > 0) return invalid(errors);
    const updated: Customer = { ...customer, ...contact, updatedAt: now };
    this.save(updated);
    return { ok: true, value: updated };
  }

  find(id: string): Customer | undefined {
    return this.records.get(id);
  }

  delete(id: string): boolean {
    return this.records.delete(id);
  }
}
