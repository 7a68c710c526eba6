// Package web holds the pages the engine serves to people: the developer
// dashboard at / and the API reference at /docs. They are plain HTML, CSS
// and JavaScript modules written in this folder and embedded into the
// binary, so `go build` alone produces the whole service: there is no
// bundler, no third-party script and no build step.
//
// # Layout
//
//	dashboard.html      the page at /
//	docs.html           the page at /docs
//	assets/base.css     colours (light and dark), type and the shared layout
//	assets/lib/         modules both pages use (DOM building, Markdown)
//	assets/docs/        the reference renderer (reads /v1/openapi.json)
//	assets/dashboard/   the dashboard (sign-in, account, keys, wallets,
//	                    webhooks, platform)
//
// Package http serves the pages and everything under assets/ at
// /assets/… (http/pages.go) with a strict Content-Security-Policy: scripts
// and styles come only from files of this folder, never from inline code.
//
// The browser tests in this package start the real engine and drive
// Debian's chromium through the pinned tools/browser packages (Playwright,
// axe-core, ethers); see docs/pages.md.
package web

import "embed"

// Files are the pages and assets, read-only.
//
//go:embed dashboard.html docs.html assets
var Files embed.FS
