/**
 * Parameterised WHERE clauses; `text` says how q is matched. Apart from the filters
 * (./filters.ts) and the words (./words.ts), which both add to them.
 */
export class Filters {
  readonly params: unknown[] = [];
  readonly clauses: string[] = [];
  private readonly priceClauses: string[] = [];

  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
  add(clause: string) {
    this.clauses.push(clause);
  }
  addPrice(clause: string) {
    this.priceClauses.push(clause);
  }
  where(withPrice = true): string {
    const all = withPrice ? [...this.clauses, ...this.priceClauses] : this.clauses;
    return all.length ? `where ${all.join(' and ')}` : '';
  }
  priceCondition(): string {
    return this.priceClauses.length ? this.priceClauses.join(' and ') : 'true';
  }
}
