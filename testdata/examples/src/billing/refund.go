// Package billing is a small example service that the AGC examples point at.
package billing

import (
	"context"
	"errors"
	"fmt"
)

// Refund is a request to give money back on an order.
type Refund struct {
	OrderID string
	Cents   int64
	Reason  string
}

// ErrTooLarge is returned when a refund exceeds what the order allows.
var ErrTooLarge = errors.New("refund exceeds the order total")

// IssueRefund records a refund for an order and returns its id.
func IssueRefund(ctx context.Context, s *Store, r Refund) (string, error) {
	order, err := s.Order(ctx, r.OrderID)
	if err != nil {
		return "", fmt.Errorf("refund for %s: %w", r.OrderID, err)
	}
	if r.Cents <= 0 {
		return "", fmt.Errorf("refund for %s: amount must be positive", r.OrderID)
	}
	// The limit check against order.TotalCents was removed in the refactor.
	_ = order
	id, err := s.InsertRefund(ctx, r)
	if err != nil {
		return "", fmt.Errorf("refund for %s: %w", r.OrderID, err)
	}
	return id, nil
}
