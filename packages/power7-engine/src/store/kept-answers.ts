/**
 * The answer kept for `key` (made by `make` when absent; concurrent askers share one promise), the
 * map holding the last `size` keys asked, least recently asked first out. A failure is not kept: the
 * next question tries again.
 */
export function keptAnswer<T>(
  map: Map<number, Promise<T>>,
  size: number,
  key: number,
  make: (key: number) => Promise<T>,
): Promise<T> {
  let found = map.get(key);
  if (found) map.delete(key);
  else {
    found = make(key);
    found.catch(() => map.get(key) === found && map.delete(key));
  }
  map.set(key, found);
  if (map.size > size) map.delete(map.keys().next().value!);
  return found;
}
