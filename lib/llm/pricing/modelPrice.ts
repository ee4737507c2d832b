/** Prices and their arithmetic live with the usage type (../usage.ts): `TokenUsage.priceWith(usage, price)`. */
export type { ModelPrice } from '../usage';
