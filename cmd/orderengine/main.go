// Command orderengine is the engine's single binary. It only wires: the
// subsystems live in their packages.
//
//	orderengine [serve] [flags]     run the service (the default command)
//	orderengine admin <cmd> [flags] manage accounts and keys over the admin API
//	orderengine help                list the commands
//
// Adding a command is one file defining a command value and one entry in
// registry below.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// command is one subcommand.
type command struct {
	summary string
	run     func(ctx context.Context, env *cliEnv, args []string) error
}

// cliEnv is what a command may use of the process.
type cliEnv struct {
	stdout, stderr io.Writer
	lookupEnv      func(string) (string, bool)
	// environ lists the environment (os.Environ) for serve's check of
	// unknown ORDERENGINE_* variables; nil skips the check.
	environ func() []string
	reg     registryT
}

// registryT lists the commands.
type registryT struct {
	commands map[string]command
}

// registry is the one place commands are registered.
func registry() registryT {
	return registryT{
		commands: map[string]command{
			"serve":  serveCommand(),
			"admin":  adminCommand(),
			"devnet": devnetCommand(),
			"keeper": keeperCommand(),
		},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		// The first SIGTERM or SIGINT starts the drain (serve waits up to
		// http.shutdownTimeout); releasing the signals then gives a second
		// one its default action, so it ends the process at once.
		<-ctx.Done()
		stop()
	}()
	env := &cliEnv{stdout: os.Stdout, stderr: os.Stderr, lookupEnv: os.LookupEnv, environ: os.Environ, reg: registry()}
	err := run(ctx, env, os.Args[1:])
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "orderengine:", err)
		os.Exit(1)
	}
}

// run dispatches args to a command; no command (or a flag first) is serve.
func run(ctx context.Context, env *cliEnv, args []string) error {
	name := "serve"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		name, args = args[0], args[1:]
	}
	if name == "help" {
		usage(env)
		return nil
	}
	cmd, ok := env.reg.commands[name]
	if !ok {
		usage(env)
		return fmt.Errorf("unknown command %q", name)
	}
	err := cmd.run(ctx, env, args)
	if errors.Is(err, flag.ErrHelp) {
		return nil // -h: the flag set printed its usage
	}
	return err
}

func usage(env *cliEnv) {
	names := make([]string, 0, len(env.reg.commands))
	for n := range env.reg.commands {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintln(env.stderr, "usage: orderengine <command> [flags]")
	for _, n := range names {
		fmt.Fprintf(env.stderr, "  %-8s %s\n", n, env.reg.commands[n].summary)
	}
}
