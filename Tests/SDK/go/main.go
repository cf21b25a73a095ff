// A small Go service that reports its failures through sentry-go, the way Go teams write and
// wrap errors: typed layers with codes, fmt.Errorf with %w, pkg/errors over standard-library
// errors, the same text made at two places, recovered panics of an error and of a string, and a
// message. errtriage's end-to-end tests build it with Debian's golang-go and
// golang-github-getsentry-sentry-go-dev (GOPATH mode, offline) and run it two ways:
//
//	shop -dsn DSN -manifest FILE   sends every event to errtriage serve over HTTP (/api/ID/store/)
//	shop -out DIR                  keeps every event as the SDK serialises it, one per line, in
//	                               DIR/events.ndjson (a capturing transport), and writes DIR/manifest.json
//	shop -reverse …                fails in the opposite order (each failure's events too)
//
// The failures of freshScenarios quote words made for each run (coupon codes, tenants, users in
// every form, field lists): grouping must learn which words vary from the events alone.
//
// The manifest names each event's distinct failure (its group) and whether its chain states codes.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/getsentry/sentry-go"
)

// fileTransport keeps each event as the HTTP transport would send it: json.Marshal of the event.
type fileTransport struct {
	mu   sync.Mutex
	file *os.File
}

func (t *fileTransport) Configure(options sentry.ClientOptions) {}
func (t *fileTransport) Flush(timeout time.Duration) bool     { return true }
func (t *fileTransport) SendEvent(event *sentry.Event) {
	body, err := json.Marshal(event)
	if err != nil {
		fmt.Fprintln(os.Stderr, "cannot serialise an event:", err)
		os.Exit(1)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.file.Write(append(body, '\n'))
}

type sent struct {
	EventID string `json:"event_id"`
	Group   string `json:"group"`
	Coded   bool   `json:"coded"`
}

// report runs one failure and captures it: an error through CaptureException, a panic through
// Recover (level fatal), as a service's handler does.
func report(sc scenario, n int) (eventID *sentry.EventID) {
	hub := sentry.CurrentHub().Clone()
	hub.Scope().SetUser(sentry.User{ID: fmt.Sprintf("user-%d", n)})
	defer func() {
		if r := recover(); r != nil {
			eventID = hub.Recover(r)
		}
	}()
	return hub.CaptureException(sc.fail(n))
}

func main() {
	dsn := flag.String("dsn", "", "report to this DSN over HTTP")
	out := flag.String("out", "", "keep the events in this folder instead")
	manifestPath := flag.String("manifest", "", "where the manifest goes (default OUT/manifest.json)")
	reverse := flag.Bool("reverse", false, "fail in the opposite order")
	flag.Parse()
	options := sentry.ClientOptions{Release: "shop@3.2.0", Environment: "production"}
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			panic(err)
		}
		file, err := os.Create(filepath.Join(*out, "events.ndjson"))
		if err != nil {
			panic(err)
		}
		defer file.Close()
		options.Dsn = "http://public@127.0.0.1:9/1"
		options.Transport = &fileTransport{file: file}
		if *manifestPath == "" {
			*manifestPath = filepath.Join(*out, "manifest.json")
		}
	} else {
		options.Dsn = *dsn
		options.Transport = sentry.NewHTTPSyncTransport()
	}
	if err := sentry.Init(options); err != nil {
		panic(err)
	}
	var events []sent
	all := append(scenarios(), freshScenarios()...)
	order := []int{0, 1, 2}
	if *reverse {
		for i, j := 0, len(all)-1; i < j; i, j = i+1, j-1 {
			all[i], all[j] = all[j], all[i]
		}
		order = []int{2, 1, 0}
	}
	for _, sc := range all {
		for _, n := range order {
			id := report(sc, n)
			if id == nil {
				fmt.Fprintln(os.Stderr, "the SDK dropped an event of", sc.group)
				os.Exit(1)
			}
			events = append(events, sent{string(*id), sc.group, sc.coded})
		}
	}
	for n := 0; n < 3; n++ {
		id := sentry.CaptureMessage(fmt.Sprintf("slow checkout: %dms for cart c-%d", 3000+uid(), uid()))
		events = append(events, sent{string(*id), "message-slow-checkout", false})
	}
	sentry.Flush(10 * time.Second)
	manifest, _ := json.MarshalIndent(map[string]interface{}{"sdk": "sentry.go " + sentry.Version, "events": events}, "", "  ")
	if err := os.WriteFile(*manifestPath, append(manifest, '\n'), 0o644); err != nil {
		panic(err)
	}
	fmt.Printf("sentry-go %s: %d events\n", sentry.Version, len(events))
}
