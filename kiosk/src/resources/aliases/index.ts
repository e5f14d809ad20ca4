import { AliasList } from './AliasList.tsx';
import { AliasShow } from './AliasShow.tsx';

export default { list: AliasList, show: AliasShow };
