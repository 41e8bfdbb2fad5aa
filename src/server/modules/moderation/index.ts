/** The moderation module's contract: admin roles and the control socket (scripts), excerpts. */
export { askControlSocket, type ControlAnswer, controlSocketPath } from './control';
export { excerpt } from './reportables';
export { grantAdmin, runAdminCommand } from './roles';
