// The commands that take `--all` to mean every host in hosts.json: a constant of its own, so the
// CLI's hot path and batch can ask without loading the fleet (fleet.ts).
export const FLEET_COMMANDS: ReadonlySet<string> = new Set(["list", "wait", "events"]);
