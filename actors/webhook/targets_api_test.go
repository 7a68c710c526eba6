package webhook_test

import (
	"encoding/json"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/orderengine/orderengine/app/apptest"
)

// internalTargets are webhook URLs that every mode refuses: link-local
// (cloud metadata included), private, CGNAT, unique-local, unspecified and
// other internal ranges, over https and plain http.
var internalTargets = []string{
	"https://169.254.169.254/latest/meta-data",
	"http://169.254.169.254/latest/meta-data",
	"https://169.254.1.1/hook",
	"https://[fd00:ec2::254]/latest",
	"https://[fe80::1]/hook",
	"https://[fe80::1%25eth0]/hook",
	"https://10.0.0.1/hook",
	"http://10.1.2.3:9000/hook",
	"https://172.16.0.1/hook",
	"https://172.31.255.254/hook",
	"https://192.168.1.1/hook",
	"https://[fc00::1]/hook",
	"https://100.64.0.1/hook",
	"https://0.0.0.0/hook",
	"http://0.0.0.0:9000/hook",
	"https://[::]/hook",
	"https://[::ffff:10.0.0.1]/hook",
	"https://[::ffff:169.254.169.254]/hook",
	"https://[64:ff9b::a9fe:a9fe]/hook",
	"https://224.0.0.1/hook",
	"https://198.18.0.1/hook",
	"https://[::1%25lo]/hook",
}

// targetServer is a real server in the given mode whose account may hold
// many endpoints and whose deliveries time out quickly.
func targetServer(t *testing.T, dev bool) *apptest.Server {
	return apptest.NewTestServer(t, apptest.WithConfig(func(c *config.Config) {
		c.Dev = dev
		c.Webhooks.MaxEndpoints = 10
		c.Webhooks.Timeout = 500 * time.Millisecond
	}))
}

// createTarget posts url as a webhook endpoint and returns the answer.
func createTarget(s *apptest.Server, url string) *apptest.Response {
	body, _ := json.Marshal(map[string]string{"url": url})
	return s.Do("POST", "/v1/webhooks", body, map[string]string{"X-API-Key": s.APIKey})
}

func expectRefused(t *testing.T, s *apptest.Server, urls ...string) {
	t.Helper()
	for _, u := range urls {
		if r := createTarget(s, u); r.Status != 400 || r.Code() != "INVALID_REQUEST" || !strings.Contains(string(r.Body), "target refused") {
			t.Errorf("%s: %d %s, want 400 INVALID_REQUEST (target refused)", u, r.Status, r.Body)
		}
	}
}

// TestProductionModeRefusesInternalTargets: outside dev mode only https to
// public addresses is accepted; loopback is refused like every other
// internal range.
func TestProductionModeRefusesInternalTargets(t *testing.T) {
	s := targetServer(t, false)
	rc := newReceiver(t, nil)
	port := rc.srv.URL[strings.LastIndex(rc.srv.URL, ":")+1:]
	expectRefused(t, s, internalTargets...)
	expectRefused(t, s, rc.srv.URL+"/hook", "https://127.0.0.1:"+port+"/hook", "https://localhost:"+port+"/hook",
		"https://[::1]:"+port+"/hook", "https://[::ffff:127.0.0.1]:"+port+"/hook", "http://localhost:"+port+"/hook")
	if rc.count() != 0 {
		t.Fatalf("the loopback receiver was reached %d times", rc.count())
	}
}

// TestDevModeRelaxesLoopbackOnly: dev mode accepts loopback receivers, over
// plain http too, and still refuses link-local, private and every other
// internal range.
func TestDevModeRelaxesLoopbackOnly(t *testing.T) {
	s := targetServer(t, true)
	rc := newReceiver(t, nil)
	port := rc.srv.URL[strings.LastIndex(rc.srv.URL, ":")+1:]
	expectRefused(t, s, internalTargets...)
	expectRefused(t, s, "http://93.184.216.34/hook") // plain http off loopback
	for _, u := range []string{rc.srv.URL + "/hook", "http://localhost:" + port + "/hook"} {
		r := createTarget(s, u)
		if r.Status != 201 {
			t.Fatalf("%s: %d %s, want 201", u, r.Status, r.Body)
		}
		var ep struct{ ID string }
		if err := json.Unmarshal(r.Body, &ep); err != nil {
			t.Fatal(err)
		}
		if d := pingAndWait(t, s, ep.ID); d.ResponseCode == nil || *d.ResponseCode != 200 || d.Status != "delivered" {
			t.Fatalf("%s: delivery %+v", u, d)
		}
	}
}

// deliveryView is one entry of GET /v1/webhooks/{id}/deliveries.
type deliveryView struct {
	Status       string `json:"status"`
	Attempts     int    `json:"attempts"`
	ResponseCode *int   `json:"responseCode"`
	LatencyMs    *int64 `json:"latencyMs"`
	Error        string `json:"error"`
	AttemptLog   []struct {
		ResponseCode *int   `json:"responseCode"`
		LatencyMs    int64  `json:"latencyMs"`
		Error        string `json:"error"`
	} `json:"attemptLog"`
}

// pingAndWait sends a test.ping to endpoint id through the API and returns
// its delivery once the first attempt is logged.
func pingAndWait(t *testing.T, s *apptest.Server, id string) deliveryView {
	t.Helper()
	key := map[string]string{"X-API-Key": s.APIKey}
	if r := s.Do("POST", "/v1/webhooks/"+id+"/test", nil, key); r.Status != 200 {
		t.Fatalf("test ping: %d %s", r.Status, r.Body)
	}
	var got deliveryView
	eventually(t, "the first attempt in the deliveries log", func() bool {
		r := s.Do("GET", "/v1/webhooks/"+id+"/deliveries", nil, key)
		var l struct{ Deliveries []deliveryView }
		if r.Status != 200 || json.Unmarshal(r.Body, &l) != nil || len(l.Deliveries) != 1 || l.Deliveries[0].Attempts < 1 {
			return false
		}
		got = l.Deliveries[0]
		return true
	})
	return got
}

// TestDevModeDeliveriesLogIsNoPortScanner: in dev mode a loopback port that
// is closed, one whose service answers with a non-HTTP banner and one that
// accepts and never answers (as a filtered port would leave the attempt
// hanging) all show the same generic failure, with no answer text, code or
// latency that could tell them apart.
func TestDevModeDeliveriesLogIsNoPortScanner(t *testing.T) {
	checkNoPortScanner(t, targetServer(t, true))
}

// TestAllowTargetsDeliveriesLogIsNoPortScanner: outside dev mode with
// webhooks.allowTargets listing loopback, the deliveries log shows the
// same generic failure for a closed, a non-HTTP and a silent port.
func TestAllowTargetsDeliveriesLogIsNoPortScanner(t *testing.T) {
	checkNoPortScanner(t, apptest.NewTestServer(t, apptest.WithConfig(func(c *config.Config) {
		c.Dev = false
		c.Webhooks.MaxEndpoints = 10
		c.Webhooks.Timeout = 500 * time.Millisecond
		c.Webhooks.AllowTargets = []string{"127.0.0.0/8"}
	})))
}

// checkNoPortScanner registers a closed, a banner and a silent loopback
// port on s and checks that their pings' failures read alike.
func checkNoPortScanner(t *testing.T, s *apptest.Server) {
	t.Helper()
	closed := freeLoopbackPort(t)
	banner := listenLoopback(t, func(c net.Conn) {
		_, _ = c.Write([]byte("SSH-2.0-OpenSSH_9.9 secret-banner\r\n"))
		_ = c.Close()
	})
	silent := listenLoopback(t, func(c net.Conn) {
		<-t.Context().Done()
		_ = c.Close()
	})
	var views []deliveryView
	for _, port := range []int{closed, banner, silent} {
		r := createTarget(s, "http://127.0.0.1:"+strconv.Itoa(port)+"/hook")
		if r.Status != 201 {
			t.Fatalf("port %d: %d %s", port, r.Status, r.Body)
		}
		var ep struct{ ID string }
		if err := json.Unmarshal(r.Body, &ep); err != nil {
			t.Fatal(err)
		}
		views = append(views, pingAndWait(t, s, ep.ID))
	}
	for i, d := range views {
		if d.Error != "connection failed" || d.ResponseCode != nil || d.LatencyMs == nil || *d.LatencyMs != 0 ||
			len(d.AttemptLog) != 1 || d.AttemptLog[0].Error != "connection failed" || d.AttemptLog[0].LatencyMs != 0 {
			t.Errorf("target %d: %+v, want a generic failure with no code and no latency", i, d)
		}
		raw, _ := json.Marshal(d)
		if strings.Contains(string(raw), "SSH") || strings.Contains(string(raw), "refused") || strings.Contains(string(raw), "timeout") {
			t.Errorf("target %d: the log tells the port's answer: %s", i, raw)
		}
	}
}

// freeLoopbackPort returns a loopback port nothing listens on.
func freeLoopbackPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return port
}

// listenLoopback serves every connection of a loopback listener with serve
// and returns its port.
func listenLoopback(t *testing.T, serve func(net.Conn)) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go serve(c)
		}
	}()
	return l.Addr().(*net.TCPAddr).Port
}
