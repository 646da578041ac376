
// The one bench program: `./pipeline bench NAME [options]` runs its subcommand NAME; `--help` lists every bench.
// Ctrl+C cancels the running bench, which stops what it started (the stack, emulators) within 2 minutes.
return await CommandLineProgram.RunAsync("bench", BenchCommands.Root(), args, new InvocationConfiguration { ProcessTerminationTimeout = TimeSpan.FromMinutes(2) });
