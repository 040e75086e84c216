// Debug aid: with T4A_DEBUG_MEMORY=<file>, SIGUSR2 writes the thread's heap statistics there
// (JS heap by object type, process memory). Never loaded unless that variable is set.
import { heapStats } from "bun:jsc";
import { writeFileSync } from "node:fs";

export function installMemoryProbe(path: string): void {
  process.on("SIGUSR2", () => {
    const before = heapStats();
    Bun.gc(true);
    const stats = heapStats();
    const types = Object.entries(stats.objectTypeCounts)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 40);
    writeFileSync(
      path,
      JSON.stringify(
        {
          memory: process.memoryUsage(),
          heapSizeBeforeGc: before.heapSize,
          heapSize: stats.heapSize,
          heapCapacity: stats.heapCapacity,
          extraMemorySize: stats.extraMemorySize,
          objectCount: stats.objectCount,
          protectedObjectCount: stats.protectedObjectCount,
          types,
        },
        null,
        1,
      ),
    );
  });
}
