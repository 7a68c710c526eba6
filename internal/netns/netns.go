//go:build linux

// Package netns builds a small network of Linux network namespaces for the
// tests of what crosses a network: a bridge in the caller's namespace and
// one namespace per host, each joined to the bridge by a veth pair, and
// the faults real networks bring, set with nftables inside a host's
// namespace: a partition (packets to and from some peers dropped, in both
// directions) and random packet loss. The caller's namespace (the test,
// and whatever it runs there, such as a shared chain or a webhook
// receiver) reaches every host at the host's address, and every host
// reaches the caller at the bridge's address (Gateway), whatever the
// faults between the hosts.
//
// It needs root, iproute2 (`ip`) and nftables (`nft`). Every name it makes
// carries a random tag, so two networks, of two tests or two test
// binaries, never collide; Close removes everything it made.
package netns

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// Network is a bridge and the hosts on it. Its fault methods are safe for
// concurrent use.
type Network struct {
	tag    string
	bridge string
	// Gateway is the bridge's address: the caller's namespace as every
	// host reaches it.
	Gateway netip.Addr
	// Hosts are the namespaces, in the order New made them.
	Hosts []*Host

	mu sync.Mutex
}

// Host is one network namespace on the bridge.
type Host struct {
	// NS is the namespace's name (`ip netns exec NS …`).
	NS string
	// Addr is the host's address on the bridge.
	Addr netip.Addr
	veth string
	net  *Network

	// Under net.mu: the peers whose packets this host drops, and the
	// share of its packets from and to the other hosts it drops at
	// random (percent).
	cut  map[netip.Addr]bool
	loss int
}

// Available reports why the network cannot be built here (nil when it
// can): not root, or `ip` or `nft` missing.
func Available() error {
	if os.Geteuid() != 0 {
		return errors.New("netns: network namespaces need root")
	}
	for _, cmd := range []string{"ip", "nft"} {
		if _, err := exec.LookPath(cmd); err != nil {
			return fmt.Errorf("netns: %s is not installed (make deps installs nftables): %w", cmd, err)
		}
	}
	return nil
}

// New builds a bridge and n hosts on a /24 network that no route of this
// machine uses yet. On an error, what was made is removed.
func New(n int) (nw *Network, err error) {
	if err := Available(); err != nil {
		return nil, err
	}
	if n < 1 || n > 200 {
		return nil, fmt.Errorf("netns: %d hosts: want 1 to 200", n)
	}
	var b [3]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	tag := hex.EncodeToString(b[:2])
	prefix, err := freeSubnet(b[2])
	if err != nil {
		return nil, err
	}
	nw = &Network{tag: tag, bridge: "oeb" + tag, Gateway: prefix.Addr().Next()}
	defer func() {
		if err != nil {
			_ = nw.Close()
		}
	}()
	if err := run("ip", "link", "add", nw.bridge, "type", "bridge"); err != nil {
		return nil, err
	}
	if err := run("ip", "addr", "add", nw.Gateway.String()+"/24", "dev", nw.bridge); err != nil {
		return nil, err
	}
	if err := run("ip", "link", "set", nw.bridge, "up"); err != nil {
		return nil, err
	}
	addr := nw.Gateway
	for i := range n {
		addr = addr.Next()
		h := &Host{NS: fmt.Sprintf("oe%sn%d", tag, i+1), Addr: addr, veth: fmt.Sprintf("oev%s%d", tag, i+1), net: nw,
			cut: map[netip.Addr]bool{}}
		nw.Hosts = append(nw.Hosts, h)
		if err := h.build(nw.bridge); err != nil {
			return nil, err
		}
	}
	return nw, nil
}

// freeSubnet picks 10.250.x.0/24, starting from x = seed, that no route
// of this machine overlaps.
func freeSubnet(seed byte) (netip.Prefix, error) {
	out, err := exec.Command("ip", "-4", "route", "show", "table", "all").Output()
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("netns: ip route: %w", err)
	}
	var used []netip.Prefix
	for _, line := range strings.Split(string(out), "\n") {
		for _, f := range strings.Fields(line) {
			if p, err := netip.ParsePrefix(f); err == nil {
				used = append(used, p)
			} else if a, err := netip.ParseAddr(f); err == nil && a.Is4() {
				used = append(used, netip.PrefixFrom(a, 32))
			}
		}
	}
	for k := range 256 {
		p := netip.PrefixFrom(netip.AddrFrom4([4]byte{10, 250, seed + byte(k), 0}), 24)
		free := true
		for _, u := range used {
			if u.Overlaps(p) {
				free = false
				break
			}
		}
		if free {
			return p, nil
		}
	}
	return netip.Prefix{}, errors.New("netns: no free /24 in 10.250.0.0/16")
}

// build makes the host's namespace and its veth pair, its end in the
// namespace named eth0 with the host's address.
func (h *Host) build(bridge string) error {
	peer := h.veth + "p"
	steps := [][]string{
		{"ip", "netns", "add", h.NS},
		{"ip", "link", "add", h.veth, "type", "veth", "peer", "name", peer},
		{"ip", "link", "set", h.veth, "master", bridge},
		{"ip", "link", "set", h.veth, "up"},
		{"ip", "link", "set", peer, "netns", h.NS},
		{"ip", "-n", h.NS, "link", "set", peer, "name", "eth0"},
		{"ip", "-n", h.NS, "addr", "add", h.Addr.String() + "/24", "dev", "eth0"},
		{"ip", "-n", h.NS, "link", "set", "eth0", "up"},
		{"ip", "-n", h.NS, "link", "set", "lo", "up"},
	}
	for _, s := range steps {
		if err := run(s[0], s[1:]...); err != nil {
			return err
		}
	}
	return nil
}

// Close removes the hosts' namespaces (their veth pairs go with them) and
// the bridge. It returns the first failure but tries everything.
func (nw *Network) Close() error {
	var errs []error
	for _, h := range nw.Hosts {
		if err := run("ip", "netns", "del", h.NS); err != nil && !strings.Contains(err.Error(), "No such file") {
			errs = append(errs, err)
		}
		_ = run("ip", "link", "del", h.veth) // gone with the namespace, unless it was never moved
	}
	if err := run("ip", "link", "del", nw.bridge); err != nil && !strings.Contains(err.Error(), "Cannot find device") {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Command returns the command line that runs name with args inside the
// host's namespace. `ip netns exec` executes the program in its own
// process (no fork), so the process id is the program's and signals reach
// it directly.
func (h *Host) Command(name string, args ...string) (path string, argv []string) {
	return "ip", append([]string{"netns", "exec", h.NS, name}, args...)
}

// DialContext dials addr from inside the host's namespace (its loopback
// included). The connection works like any other once made.
func (h *Host) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	return Dialer(h.NS)(ctx, network, addr)
}

// Dialer returns DialContext for the namespace named ns (an HTTP
// transport's DialContext, say): the socket is made on an OS thread moved
// into the namespace for the dial and moved back after it.
func Dialer(ns string) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (c net.Conn, err error) {
		err = inside(ns, func() error {
			var d net.Dialer
			c, err = d.DialContext(ctx, network, addr)
			return err
		})
		return c, err
	}
}

// Listen listens on addr inside the host's namespace (see Dialer): tests
// serve from a host without a process of their own.
func (h *Host) Listen(network, addr string) (l net.Listener, err error) {
	err = inside(h.NS, func() error {
		l, err = net.Listen(network, addr)
		return err
	})
	return l, err
}

// inside runs f on a goroutine whose OS thread is in the namespace ns for
// the call, and moves the thread back to its own namespace after it. The
// thread is not left to end: a child process started from it (a node,
// with a parent-death signal) would be signalled when it ends. Only if it
// cannot move back does its goroutine end locked, which ends the thread,
// so that no other goroutine runs in the wrong namespace.
func inside(ns string, f func() error) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		self, err := unix.Open("/proc/thread-self/ns/net", unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			runtime.UnlockOSThread()
			errc <- fmt.Errorf("netns: this thread's namespace: %w", err)
			return
		}
		defer func() { _ = unix.Close(self) }()
		if err := enter(ns); err != nil {
			runtime.UnlockOSThread()
			errc <- err
			return
		}
		err = f()
		if unix.Setns(self, unix.CLONE_NEWNET) != nil {
			errc <- err
			return // ends locked: the thread goes
		}
		runtime.UnlockOSThread()
		errc <- err
	}()
	return <-errc
}

// enter moves the calling goroutine's locked OS thread into the
// namespace ns.
func enter(ns string) error {
	fd, err := unix.Open("/var/run/netns/"+ns, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("netns: open %s: %w", ns, err)
	}
	defer func() { _ = unix.Close(fd) }()
	if err := unix.Setns(fd, unix.CLONE_NEWNET); err != nil {
		return fmt.Errorf("netns: enter %s: %w", ns, err)
	}
	return nil
}

// Isolate cuts host h from every other host, in both directions; the
// caller's namespace still reaches it.
func (nw *Network) Isolate(h *Host) error {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	for _, o := range nw.Hosts {
		if o != h {
			h.cut[o.Addr], o.cut[h.Addr] = true, true
		}
	}
	return nw.applyLocked()
}

// Cut drops the packets between hosts a and b, in both directions (a ring
// partition is one cut among three hosts: each still reaches the third).
func (nw *Network) Cut(a, b *Host) error {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	a.cut[b.Addr], b.cut[a.Addr] = true, true
	return nw.applyLocked()
}

// Loss makes every host drop percent of its packets from and to the
// other hosts, at random (0 ends the loss).
func (nw *Network) Loss(percent int) error {
	if percent < 0 || percent > 100 {
		return fmt.Errorf("netns: loss %d%%: want 0 to 100", percent)
	}
	nw.mu.Lock()
	defer nw.mu.Unlock()
	for _, h := range nw.Hosts {
		h.loss = percent
	}
	return nw.applyLocked()
}

// Heal ends every partition and loss.
func (nw *Network) Heal() error {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	for _, h := range nw.Hosts {
		clear(h.cut)
		h.loss = 0
	}
	return nw.applyLocked()
}

// applyLocked writes every host's rules.
func (nw *Network) applyLocked() error {
	var errs []error
	for _, h := range nw.Hosts {
		errs = append(errs, h.applyLocked())
	}
	return errors.Join(errs...)
}

// applyLocked replaces the host's nftables table with its cuts and loss:
// one table, rewritten whole (declaring it first makes the delete valid
// when it does not exist yet).
func (h *Host) applyLocked() error {
	var rules bytes.Buffer
	fmt.Fprintf(&rules, "table inet nemesis\ndelete table inet nemesis\n")
	var cut []string
	for a, on := range h.cut {
		if on {
			cut = append(cut, a.String())
		}
	}
	var peers []string
	for _, o := range h.net.Hosts {
		if o != h {
			peers = append(peers, o.Addr.String())
		}
	}
	if len(cut) > 0 || h.loss > 0 {
		fmt.Fprintf(&rules, "table inet nemesis {\n")
		for _, hook := range []struct{ chain, dir string }{{"input", "saddr"}, {"output", "daddr"}} {
			fmt.Fprintf(&rules, "  chain %s {\n    type filter hook %s priority 0; policy accept;\n", hook.chain, hook.chain)
			if len(cut) > 0 {
				fmt.Fprintf(&rules, "    ip %s { %s } drop\n", hook.dir, strings.Join(cut, ", "))
			}
			switch {
			case len(peers) == 0 || h.loss == 0:
			case h.loss >= 100:
				fmt.Fprintf(&rules, "    ip %s { %s } drop\n", hook.dir, strings.Join(peers, ", "))
			default:
				fmt.Fprintf(&rules, "    ip %s { %s } numgen random mod 100 < %d drop\n", hook.dir, strings.Join(peers, ", "), h.loss)
			}
			fmt.Fprintf(&rules, "  }\n")
		}
		fmt.Fprintf(&rules, "}\n")
	}
	cmd := exec.Command("ip", "netns", "exec", h.NS, "nft", "-f", "-")
	cmd.Stdin = &rules
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("netns: nft in %s: %v: %s\n%s", h.NS, err, out, rules.String())
	}
	return nil
}

// run runs a command and returns its output with the error.
func run(name string, args ...string) error {
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("netns: %s %s: %v: %s", name, strings.Join(args, " "), err, bytes.TrimSpace(out))
	}
	return nil
}
