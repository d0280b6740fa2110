// POST /api/v1/smart-money/wallets - add a wallet to the watch list (same as POST /api/smart-money/watch)
import { alsoAt } from '../../http/endpoint';
import familyA from '../a/smart-money.watch.post';

export default alsoAt(familyA, '/api/v1/smart-money/wallets');
