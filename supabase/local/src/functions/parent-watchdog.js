/* global Deno */
// Preloaded into every function process (deno run --preload): when the stack that spawned the
// process dies without stopping it (SIGKILL, crash), the process is re-parented and this ends
// it, so no Deno outlives its stack. The timer is unref'd: it never keeps a process alive.
const parent = Deno.ppid;
const timer = setInterval(() => {
  if (Deno.ppid !== parent) Deno.exit(0);
}, 500);
Deno.unrefTimer(timer);
