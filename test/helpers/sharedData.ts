/** `shared/data/<name>` beside the checkout (a clone in any folder, or a worktree below it). */
export { sharedDataPath as sharedData } from '../../config/paths';
