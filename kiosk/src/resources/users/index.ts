import { UserEdit } from './UserEdit.tsx';
import { UserList } from './UserList.tsx';
import { UserShow } from './UserShow.tsx';

export default { list: UserList, show: UserShow, edit: UserEdit };
