package main

import (
	"encoding/json"
	stderrors "errors"
	"fmt"
	"math/rand"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

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

func loadProfile(n int) error {
	var profile map[string]interface{}
	body := fmt.Sprintf("{\"user\": %d, \"name\": %s}", uid(), []string{"ann", "bob", "cy"}[n])
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
		{"pkg-profile", false, func(n int) error { return loadProfile(n) }},
		{"strconv-quantity", false, func(n int) error { return parseQuantity() }},
		{"dial-inventory", false, func(n int) error { return connectInventory() }},
		{"invalid-input-billing", false, func(n int) error { return validateBilling(uid()) }},
		{"invalid-input-profile", false, func(n int) error { return validateProfile("ann") }},
		{"panic-string", false, func(n int) error { panic(fmt.Sprintf("inventory %d out of sync", uid())) }},
	}
}

// fresh gives the words that change from one run to the next: coupon codes, tenants, field lists,
// payment methods, users in every form, suppliers. The tests never list them: grouping must learn
// which words vary at one place from the events alone.
var fresh = rand.New(rand.NewSource(time.Now().UnixNano()))

// distinct returns n different values of gen.
func distinct(n int, gen func() string) []string {
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		if v := gen(); !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

func letters(n int, alphabet string) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[fresh.Intn(len(alphabet))]
	}
	return string(b)
}

const lower = "abcdefghijklmnopqrstuvwxyz"
const upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

// couponCode is a promo code in one of the forms shops use (kind 0 to 3): SPRING24, WELCOME, vip, X7K2Q9.
func couponCode(kind int) string {
	switch kind {
	case 0:
		return letters(4+fresh.Intn(4), upper) + strconv.Itoa(10+fresh.Intn(90))
	case 1:
		return letters(5+fresh.Intn(4), upper)
	case 2:
		return letters(3+fresh.Intn(4), lower)
	default:
		return letters(2, upper) + strconv.Itoa(fresh.Intn(10)) + letters(3, upper)
	}
}

// userForm names a user by numeric id, hex id, e-mail or handle (kind 0 to 3).
func userForm(kind int) string {
	switch kind {
	case 0:
		return strconv.Itoa(1000 + fresh.Intn(99999999))
	case 1:
		return fmt.Sprintf("%x", fresh.Uint64())
	case 2:
		return letters(3+fresh.Intn(5), lower) + "@" + letters(4, lower) + ".example.com"
	default:
		return "u" + strconv.Itoa(fresh.Intn(100000))
	}
}

func fieldList() string {
	fields := []string{"name", "email", "phone", "street", "zip", "country", "vat_id", "birthday"}
	fresh.Shuffle(len(fields), func(i, j int) { fields[i], fields[j] = fields[j], fields[i] })
	return strings.Join(fields[:1+fresh.Intn(3)], ", ")
}

// The stdlib's errors package, for sentinels without a stack (pkg/errors' New records one).
func sentinel(text string) error { return stderrors.New(text) }

var (
	errCouponNotFound = sentinel("coupon not found")
	errCouponExpired  = sentinel("coupon expired")
	errDeclined       = sentinel("payment declined")
	errSession        = sentinel("session expired")
	errOutOfStock     = sentinel("out of stock")
)

func loadCoupon(code string, root error) error { return fmt.Errorf("load coupon %s: %w", code, root) }

func decodeCart(id string) error {
	var cart struct {
		Qty int `json:"qty"`
	}
	body := fmt.Sprintf(`{"id": %q, "qty": %q}`, id, letters(2, lower))
	if err := json.Unmarshal([]byte(body), &cart); err != nil {
		return fmt.Errorf("decode cart %s: %w", id, err)
	}
	return nil
}

// reserveStock panics where it is called from: a request handler and a worker reach it.
func reserveStock(sku string) { panic(fmt.Errorf("reserve stock %s: %w", sku, errOutOfStock)) }

func checkoutHandler(sku string) error { reserveStock(sku); return nil }
func restockWorker(sku string) error   { reserveStock(sku); return nil }

// freshScenarios fail with words made for this run, three distinct values per failure.
func freshScenarios() []scenario {
	// Three of the four forms per failure, in an order of the run's.
	var coupons []string
	for i := 0; i < 2; i++ {
		for _, kind := range fresh.Perm(4)[:3] {
			coupons = append(coupons, couponCode(kind))
		}
	}
	// Three of the four forms, in an order of the run's.
	kinds := fresh.Perm(4)
	users := []string{userForm(kinds[0]), userForm(kinds[1]), userForm(kinds[2])}
	tenants := distinct(3, func() string { return letters(4+fresh.Intn(5), lower) })
	methods := distinct(3, func() string { return []string{"card", "paypal", "sepa", "klarna", "ideal", "giropay"}[fresh.Intn(6)] })
	fields := distinct(3, fieldList)
	suppliers := distinct(3, func() string { return letters(3+fresh.Intn(6), lower) })
	skus := distinct(3, func() string { return letters(3, upper) + "-" + strconv.Itoa(100+fresh.Intn(900)) })
	return []scenario{
		{"coupon-not-found", false, func(n int) error { return loadCoupon(coupons[n], errCouponNotFound) }},
		{"coupon-expired", false, func(n int) error { return loadCoupon(coupons[3+n], errCouponExpired) }},
		{"charge-tenant", false, func(n int) error {
			return fmt.Errorf("charge tenant %s with %s: %w", tenants[n], methods[n], errDeclined)
		}},
		{"refresh-user", false, func(n int) error { return fmt.Errorf("refresh session for user %s: %w", users[n], errSession) }},
		{"missing-fields", false, func(n int) error {
			return fmt.Errorf("validate order %d: %w", uid(), fmt.Errorf("missing fields %s", fields[n]))
		}},
		{"supplier-feed", false, func(n int) error {
			return fmt.Errorf("import catalog: %w", fmt.Errorf("supplier feed %s is not valid JSON", suppliers[n]))
		}},
		{"json-cart", false, func(n int) error { return decodeCart(id()) }},
		{"panic-stock", false, func(n int) error {
			if n%2 == 0 {
				return checkoutHandler(skus[n])
			}
			return restockWorker(skus[n])
		}},
	}
}
