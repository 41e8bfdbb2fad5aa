import { LibraryScreen } from './LibraryPage';

/** /trade: the library screen with the trade filter chosen (a visitor can still widen it). */
export default function TradePage() {
  return <LibraryScreen mode="trade" />;
}
