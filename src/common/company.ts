// Company details shown on the Contact page and used in mail. Edit config/company.json to change them.
import company from '../../config/company.json';

export interface Cofounder {
  name: string;
  role: string;
  email: string;
  phone: string;
}

export interface Company {
  name: string;
  city: string;
  state: string;
  phone: string;
  email: string;
  teamInbox: string;
  mailFrom: string;
  cofounders: Cofounder[];
}

export const COMPANY: Company = company;
