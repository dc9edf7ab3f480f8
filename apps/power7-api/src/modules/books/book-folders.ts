import { join } from 'node:path';

/** The live books' folder inside the sessions' storage root (the sessions' sweep leaves it alone). */
export const BOOKS_FOLDER = 'books';

export const booksRoot = (storageRoot: string) => join(storageRoot, BOOKS_FOLDER);
