export type { ModelPrice } from './modelPrice';
export { libraryPriceOf, libraryCostOf, PRICE_LIBRARY, type LibraryPrice } from './libraryPrice';
export {
  priceOf,
  knownCostOf,
  priceConfigKey,
  type KnownPrice,
  type PriceSettings,
  type PriceSource,
} from './priceLookup';
export { runPricingOf, assertPricedForBudget, describePricing, UnknownPriceError, type RunPricing } from './runPricing';
