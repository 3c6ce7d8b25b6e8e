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

export class Customers {
  constructor(private readonly records: Collection<Customer>) {}

  create(input: CustomerInput, now: Date): Outcome<Customer> {
    const errors: ValidationError[] = [];
    let id: string;
    if (input.id === undefined || input.id === null || input.id === '') {
      // The provider generates numeric-looking ids; any id matching the path rule works the same.
      do id = randomId(9);
      while (this.records.has(id));
    } else {
      id = String(input.id);
      if (!CUSTOMER_ID.test(id)) {
        errors.push(validationError(CUSTOMER, 'id', '91610', 'Customer ID is invalid.'));
      } else if (this.records.has(id)) {
        errors.push(validationError(CUSTOMER, 'id', '91609', 'Customer ID has already been taken.'));
      }
    }
    const firstName = optionalText(input.firstName, 'first_name', 255, '81608', 'First name', errors);
    const lastName = optionalText(input.lastName, 'last_name', 255, '81613', 'Last name', errors);
    const company = optionalText(input.company, 'company', 255, '81601', 'Company', errors);
    const phone = optionalText(input.phone, 'phone', 255, '81615', 'Phone', errors);
    const email = optionalText(input.email, 'email', 255, '81605', 'Email', errors);
    if (email !== null && !EMAIL.test(email)) {
      errors.push(validationError(CUSTOMER, 'email', '81604', 'Email is an invalid format.'));
    }
    if (errors.length > 0) return invalid(errors);
    const customer: Customer = { id, firstName, lastName, email, company, phone, createdAt: now, updatedAt: now };
    this.records.set(id, customer);
    return { ok: true, value: customer };
  }

  find(id: string): Customer | undefined {
    return this.records.get(id);
  }

  delete(id: string): boolean {
    return this.records.delete(id);
  }
}
