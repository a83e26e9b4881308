// A footage file's state, read the same way by the server and the footage screen.
import { FOOTAGE } from './admin-messages';

/**
 * A file found damaged while indexing (it failed for good): only a new upload cures it, so it
 * frees its camera's name for that upload and takes no part in lining up the game's cameras.
 */
export const isDamagedFootage = (file: { indexState: string; indexError: string | null }) => file.indexState === 'failed' && file.indexError === FOOTAGE.damaged;
