// Loaded with `node --import` into a `protoplay` child by the benchmarks: when the process exits, it
// prints its peak resident memory (the kernel's high-water mark) on stderr, for the bench to read.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  writeSync(2, `\nprotoplay-bench peak-rss-kb ${process.resourceUsage().maxRSS}\n`);
});
