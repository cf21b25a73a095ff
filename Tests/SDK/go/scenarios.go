package main

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"net"
	"os"
	"strconv"

	"github.com/pkg/errors"
)

// A scenario is one distinct failure: its group name, whether its chain states codes, and a
// function that fails that way (with per-event data that grouping must ignore) or panics.
type scenario struct {
	group string
	coded bool
	fail  func(n int) error
}

var rng = rand.New(rand.NewSource(20261127))

func id() string  { return fmt.Sprintf("%08x%08x", rng.Uint32(), rng.Uint32()) }
func uid() int    { return 1000 + rng.Intn(9000) }
func url() string { return fmt.Sprintf("https://api.example.com/v1/token?req=%s", id()) }

func timeout() error      { return &NetworkError{Code: 8, Op: "timeout", URL: url()} }
func notConnected() error { return &NetworkError{Code: 29, Op: "notConnected", URL: url()} }
func refused() error      { return &NetworkError{Code: 61, Op: "connectionRefused", URL: url()} }

func login(api int, root error) error {
	return &UserError{Code: 14, Op: "connectionIssue", Err: &LogicError{Code: 43, Op: "loginFailed",
		Err: &APIError{Code: api, Op: "getTokenFailed", Err: root}}}
}

// resumeSession, uploadAvatar and deleteAvatar wrap the same kind of root with fmt.Errorf and %w:
// three failures (the last two of the same depth).
func refreshToken(user int, root error) error { return fmt.Errorf("refresh token for u%d: %w", user, root) }
func resumeSession(root error) error {
	return fmt.Errorf("resume session %s: %w", id(), refreshToken(uid(), root))
}
func uploadAvatar(root error) error { return fmt.Errorf("upload avatar %d: %w", uid(), root) }
func deleteAvatar(root error) error { return fmt.Errorf("delete avatar %d: %w", uid(), root) }

// readConfig and loadProfile wrap real standard-library errors with pkg/errors.
func readConfig() error {
	f, err := os.Open(fmt.Sprintf("/nonexistent/shop-%d.json", uid()))
	if err != nil {
		return errors.Wrap(err, "read config")
	}
	f.Close()
	return nil
}

func loadProfile() error {
	var profile map[string]interface{}
	body := fmt.Sprintf("{\"user\": %d, \"name\": %s}", uid(), []string{"ann", "bob", "cy"}[rng.Intn(3)])
	if err := json.Unmarshal([]byte(body), &profile); err != nil {
		return errors.Wrapf(err, "load profile %d", uid())
	}
	return nil
}

func parseQuantity() error {
	input := []string{"12x", "three", "4.5", "-"}[rng.Intn(4)]
	if _, err := strconv.Atoi(input); err != nil {
		return fmt.Errorf("parse quantity %q: %w", input, err)
	}
	return nil
}

func connectInventory() error {
	conn, err := net.Dial("tcp", "127.0.0.1:1")
	if err != nil {
		return fmt.Errorf("connect inventory: %w", err)
	}
	conn.Close()
	return nil
}

// validateBilling and validateProfile fail with the same type and text at two places: pkg/errors
// records where each was made.
func validateBilling(amount int) error {
	if amount >= 0 {
		return errors.New("invalid input")
	}
	return nil
}

func validateProfile(name string) error {
	if name != "" {
		return errors.New("invalid input")
	}
	return nil
}

func scenarios() []scenario {
	return []scenario{
		{"coded-timeout", true, func(n int) error { return login(7, timeout()) }},
		{"coded-notconnected", true, func(n int) error { return login(7, notConnected()) }},
		{"coded-middle", true, func(n int) error { return login(9, timeout()) }},
		{"coded-api-only", true, func(n int) error { return &APIError{Code: 7, Op: "getTokenFailed", Err: timeout()} }},
		{"coded-user-only", true, func(n int) error { return &UserError{Code: 3, Op: "sessionExpired"} }},
		{"wrap-resume", true, func(n int) error { return resumeSession(timeout()) }},
		{"wrap-upload", true, func(n int) error { return uploadAvatar(timeout()) }},
		{"wrap-delete", true, func(n int) error { return deleteAvatar(timeout()) }},
		{"wrap-resume-refused", true, func(n int) error { return resumeSession(refused()) }},
		{"pkg-wrap-coded", true, func(n int) error { return errors.Wrapf(timeout(), "sync cart %d", uid()) }},
		{"panic-error", true, func(n int) error {
			panic(fmt.Errorf("apply discount %s: %w", id(), &LogicError{Code: 61, Op: "discountExpired"}))
		}},
		{"pkg-config", false, func(n int) error { return readConfig() }},
		{"pkg-profile", false, func(n int) error { return loadProfile() }},
		{"strconv-quantity", false, func(n int) error { return parseQuantity() }},
		{"dial-inventory", false, func(n int) error { return connectInventory() }},
		{"invalid-input-billing", false, func(n int) error { return validateBilling(uid()) }},
		{"invalid-input-profile", false, func(n int) error { return validateProfile("ann") }},
		{"panic-string", false, func(n int) error { panic(fmt.Sprintf("inventory %d out of sync", uid())) }},
	}
}
