package web_test

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/chain/devchain"
)

// devKeys returns the first n dev-chain keys as 0x-hex, for the test wallet.
func devKeys(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "0x" + hex.EncodeToString(crypto.FromECDSA(devchain.DevKey(i)))
	}
	return out
}

// signedOutSeen is what the signedOut scenario saw at one width.
type signedOutSeen struct {
	Heading, NoWalletNotice, FirstTab, Alert string
	SectionsHidden                           bool
	DocsLinks                                int
}

type declinedSeen struct {
	NoWalletNotice int
	Alert          string
	ButtonEnabled  bool
	WalletCalls    []string
}

// TestDashboardSignedOut opens the dashboard in chromium at 1280 px
// (light) and 390 px (dark) without a session: the sign-in view, a browser
// without a wallet (the page says so, and again when the button is
// pressed), and an injected wallet whose owner declines (the page says
// nothing was signed, asked for no signature, and the button works
// again); every state is free of accessibility violations, console
// errors, CSP violations and horizontal overflow.
func TestDashboardSignedOut(t *testing.T) {
	ts := apptest.NewTestServer(t)
	r := runBrowser(t, plan{BaseURL: ts.URL, Scenarios: []string{"signedOut"}, WalletKeys: devKeys(1), ChainID: ts.Config.Chain.ChainID})
	var seen struct {
		NoWallet1280, NoWallet390 signedOutSeen
		Declined1280, Declined390 declinedSeen
	}
	s := r.scenario(t, "signedOut", &seen)
	if len(s.Audits) != 4 {
		t.Errorf("%d page states recorded, want 4", len(s.Audits))
	}
	for width, nw := range map[string]signedOutSeen{"1280": seen.NoWallet1280, "390": seen.NoWallet390} {
		if nw.Heading != "Sign in" || !nw.SectionsHidden || nw.DocsLinks < 2 {
			t.Errorf("%s px: sign-in view %+v: want the heading, the sections hidden, links to /docs", width, nw)
		}
		if nw.FirstTab != "Skip to content" {
			t.Errorf("%s px: the first Tab reaches %q, want the skip link", width, nw.FirstTab)
		}
		if !strings.Contains(nw.NoWalletNotice, "No browser wallet was found") || !strings.Contains(nw.Alert, "No browser wallet was found") {
			t.Errorf("%s px: without a wallet: notice %q, alert after the button %q", width, nw.NoWalletNotice, nw.Alert)
		}
	}
	for width, d := range map[string]declinedSeen{"1280": seen.Declined1280, "390": seen.Declined390} {
		if d.NoWalletNotice != 0 {
			t.Errorf("%s px: the no-wallet notice shows although a wallet is injected", width)
		}
		if d.Alert != "You declined the request in your wallet. Nothing was signed." || !d.ButtonEnabled {
			t.Errorf("%s px: declined: alert %q, button enabled %v", width, d.Alert, d.ButtonEnabled)
		}
		if strings.Join(d.WalletCalls, ",") != "eth_requestAccounts" {
			t.Errorf("%s px: declined: the page asked the wallet for %v, want only eth_requestAccounts", width, d.WalletCalls)
		}
	}
}
