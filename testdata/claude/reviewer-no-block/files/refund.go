package billing

// IssueRefund pays back amount cents of an order.
func IssueRefund(total, amount int) int {
	return amount
}
