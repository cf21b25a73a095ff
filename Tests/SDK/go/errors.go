package main

import "fmt"

// The shop's typed errors, one type per layer, each with its own code, the way Go teams write
// them: Error() names the layer's case and code and then repeats its cause's message, as Go's
// convention has every wrapper do; Unwrap() gives the cause to errors.Is/As and to sentry-go.

// NetworkError is the transport's failure: the root of a chain.
type NetworkError struct {
	Code int
	Op   string
	URL  string
}

func (e *NetworkError) Error() string { return fmt.Sprintf("%s (code %d): POST %s", e.Op, e.Code, e.URL) }

// APIError is the API client's: a request that failed.
type APIError struct {
	Code int
	Op   string
	Err  error
}

func (e *APIError) Error() string { return fmt.Sprintf("%s (code %d): %v", e.Op, e.Code, e.Err) }
func (e *APIError) Unwrap() error { return e.Err }

// LogicError is the business logic's.
type LogicError struct {
	Code int
	Op   string
	Err  error
}

func (e *LogicError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("%s (code %d)", e.Op, e.Code)
	}
	return fmt.Sprintf("%s (code %d): %v", e.Op, e.Code, e.Err)
}
func (e *LogicError) Unwrap() error { return e.Err }

// UserError is what the user was shown.
type UserError struct {
	Code int
	Op   string
	Err  error
}

func (e *UserError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("%s (code %d)", e.Op, e.Code)
	}
	return fmt.Sprintf("%s (code %d): %v", e.Op, e.Code, e.Err)
}
func (e *UserError) Unwrap() error { return e.Err }
