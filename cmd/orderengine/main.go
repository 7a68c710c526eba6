// Command orderengine is the engine's single binary. It only wires: the
// subsystems live in their packages.
//
//	orderengine serve [flags]       run the service (`make run`)
//	orderengine admin <cmd> [flags] manage accounts and keys over the admin API
//	orderengine devnet <cmd>        serve the dev chain to several nodes, deploy, fund
//	orderengine cluster [flags]     the dev chain and three cluster nodes (`make cluster`)
//	orderengine probe [flags]       exit 0 when a node is ready (container health check)
//	orderengine keeper [flags]      the reference keeper
//	orderengine version             print the version, commit and Go release
//	orderengine help                list the commands (also -h, --help)
//
// With no command it lists the commands and exits 2: a bare binary never
// starts a server by accident. Adding a command is one file defining a
// command value and one entry in registry below.
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
	"strings"
	"syscall"

	"github.com/orderengine/orderengine/internal/buildinfo"
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
			"serve":   serveCommand(),
			"admin":   adminCommand(),
			"devnet":  devnetCommand(),
			"cluster": clusterCommand(),
			"probe":   probeCommand(),
			"restore": restoreCommand(),
			"keeper":  keeperCommand(),
			"version": {summary: "print the version, commit and Go release", run: runVersion},
		},
	}
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		// The first SIGTERM or SIGINT starts the drain (serve waits up to
		// http.shutdownTimeout). The signals are released first, then the
		// drain begins: a second one, even one sent as soon as the drain
		// is logged, gets its default action and ends the process at once.
		<-sigs
		signal.Stop(sigs)
		cancel()
	}()
	env := &cliEnv{stdout: os.Stdout, stderr: os.Stderr, lookupEnv: os.LookupEnv, environ: os.Environ, reg: registry()}
	err := run(ctx, env, os.Args[1:])
	signal.Stop(sigs)
	cancel()
	os.Exit(exitCode(err))
}

// usageError is a command line that names no command or an unknown one;
// the commands were listed on stderr.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// exitCode is the process status of run's result: 0; 2 for a command line
// without a known command (as flag parsing errors conventionally do); 1
// for any other error. Errors are printed.
func exitCode(err error) int {
	if err == nil {
		return 0
	}
	fmt.Fprintln(os.Stderr, "orderengine:", err)
	var ue *usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}

// run dispatches args to a command. The command comes first; no command
// lists the commands on stderr and returns a *usageError; help, -h and
// --help list them on stdout.
func run(ctx context.Context, env *cliEnv, args []string) error {
	if len(args) == 0 {
		usage(env, env.stderr)
		return &usageError{"no command given"}
	}
	name, args := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		usage(env, env.stdout)
		return nil
	}
	cmd, ok := env.reg.commands[name]
	if !ok {
		usage(env, env.stderr)
		if strings.HasPrefix(name, "-") {
			return &usageError{fmt.Sprintf("the command comes first, e.g. orderengine serve %s", name)}
		}
		return &usageError{fmt.Sprintf("unknown command %q", name)}
	}
	err := cmd.run(ctx, env, args)
	if errors.Is(err, flag.ErrHelp) {
		return nil // -h: the flag set printed its usage
	}
	return err
}

// usage lists every command with its summary on w.
func usage(env *cliEnv, w io.Writer) {
	names := make([]string, 0, len(env.reg.commands))
	for n := range env.reg.commands {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintln(w, "usage: orderengine <command> [flags]")
	fmt.Fprintln(w, "\ncommands:")
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, env.reg.commands[n].summary)
	}
	fmt.Fprintf(w, "  %-8s %s\n", "help", "list the commands (also -h, --help)")
	fmt.Fprintln(w, "\n`orderengine <command> -h` lists a command's flags; `make run` is `orderengine serve`.")
}

// runVersion prints the build: version, commit and Go release.
func runVersion(_ context.Context, env *cliEnv, args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("version: unexpected arguments %q", args)
	}
	b := buildinfo.Get()
	_, err := fmt.Fprintf(env.stdout, "orderengine %s\ncommit %s\ngo %s\n", b.Version, b.Commit, b.GoVersion)
	return err
}
