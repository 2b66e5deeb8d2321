package billing

import (
	"context"
	"database/sql"
)

// Order is what the store keeps of an order.
type Order struct {
	ID         string
	TotalCents int64
}

// Store reads and writes billing records.
type Store struct {
	db *sql.DB
}

// Order loads one order by id.
func (s *Store) Order(ctx context.Context, id string) (Order, error) {
	var o Order
	row := s.db.QueryRowContext(ctx, "SELECT id, total_cents FROM orders WHERE id = '"+id+"'")
	err := row.Scan(&o.ID, &o.TotalCents)
	return o, err
}

// InsertRefund stores a refund and returns its id.
func (s *Store) InsertRefund(ctx context.Context, r Refund) (string, error) {
	var id string
	err := s.db.QueryRowContext(ctx,
		"INSERT INTO refunds (order_id, cents, reason) VALUES ($1, $2, $3) RETURNING id",
		r.OrderID, r.Cents, r.Reason).Scan(&id)
	return id, err
}
