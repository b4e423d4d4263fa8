// Package web holds the findBestFlight results view, ui://flightserver/results:
// an MCP App page built from web/src by `npm run build` and committed, so that
// `go build` needs no Node.
package web

import _ "embed"

// ResultsHTML is the results view: one self-contained HTML page (its script
// and styles inlined, nothing fetched) that hosts declaring the MCP Apps
// extension render beside a findBestFlight result. The server returns it from
// resources/read with the MIME type text/html;profile=mcp-app.
//
//go:embed dist/results.html
var ResultsHTML []byte
