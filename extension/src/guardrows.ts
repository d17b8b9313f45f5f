// The guards table's rows and filter choices for a view state, from caches kept while the
// document lives: a re-sort, a filter or a click on a row of 100,000 guards is then one pass
// over an array, not a sort and four lists of distinct values again. No DOM, so vitest runs it.
import type { Guard, Session } from "./document";
import type { GuardFilter, SortKey } from "./model";
import { compileIds, distinct, filterGuards, sortGuards } from "./model";

/** What each filter of the guards table offers: every distinct value of its column. */
export interface GuardChoices {
  cause: string[];
  status: string[];
  compile: string[];
  phase: string[];
}

const orders = new WeakMap<Guard[], Map<string, Guard[]>>();
const choices = new WeakMap<Session, GuardChoices>();

/** The guards sorted by `key` (each order made once per list of guards). */
export function sortedGuards(guards: Guard[], key: SortKey, descending: boolean): Guard[] {
  const known = orders.get(guards) ?? new Map<string, Guard[]>();
  orders.set(guards, known);
  const name = `${key} ${descending}`;
  const order = known.get(name) ?? sortGuards(guards, key, descending);
  known.set(name, order);
  return order;
}

/** The rows of the table: the guards the filter keeps, sorted (a stable sort, then filtered, keeps the same order). */
export function guardRows(session: Session, filter: GuardFilter, key: SortKey, descending: boolean): Guard[] {
  return filterGuards(sortedGuards(session.guards, key, descending), filter);
}

/** The values each filter offers (made once per document). */
export function guardChoices(session: Session): GuardChoices {
  const known = choices.get(session);
  if (known) return known;
  const made = {
    cause: distinct(session.guards, (g) => g.cause),
    status: distinct(session.guards, (g) => g.status),
    compile: compileIds(session),
    phase: distinct(session.guards, (g) => g.phase),
  };
  choices.set(session, made);
  return made;
}
