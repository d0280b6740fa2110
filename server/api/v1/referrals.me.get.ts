// GET /api/v1/referrals/me - the caller's referral code and earnings (the same as GET /api/v1/referrals)
import { alsoAt } from '../../http/endpoint';
import referrals from './referrals.get';

export default alsoAt(referrals, '/api/v1/referrals/me');
