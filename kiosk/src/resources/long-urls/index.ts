import { LongUrlList } from './LongUrlList.tsx';
import { LongUrlShow } from './LongUrlShow.tsx';

export default { list: LongUrlList, show: LongUrlShow };
