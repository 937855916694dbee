/**
 * A copy of `value` without the properties `drop` picks: the non-mutating form of a `delete` loop. Only for
 * objects whose dropped properties are optional (search params, error maps), so the copy is still a `T`.
 */
export function omitWhere<T extends object>(value: T, drop: (key: keyof T & string, entry: T[keyof T]) => boolean): T {
  return Object.fromEntries(
    Object.entries(value).filter(([key, entry]) => !drop(key as keyof T & string, entry as T[keyof T])),
  ) as T;
}
