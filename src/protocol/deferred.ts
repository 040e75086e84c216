// A schema built the first time something looks into it. A client call imports a command's
// module for its CLI wiring and validates with few of the schemas the module and its imports
// declare; and in a fresh process a valibot function's first run costs tens of µs (measured in
// the compiled binary: a 22-field object schema took 0.6 ms to build first, 0.07 ms again), so
// building every schema at import cost `t4a list` ~1.4 ms of its ~11.
//
// The stand-in forwards every look (property, key list, `in`) and every write to the schema it
// builds then, so valibot, its JSON Schema converter and the types see the schema itself.
export function deferred<T extends object>(build: () => T): T {
  let built: T | undefined;
  const schema = () => (built ??= build());
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(schema(), key),
    has: (_, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor(_, key) {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      // A proxy may report a key its (empty) target lacks only as configurable.
      return descriptor && { ...descriptor, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
    // Writes too land on the schema, never on the empty stand-in.
    set: (_, key, value) => Reflect.set(schema(), key, value),
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(schema(), key),
  });
}
