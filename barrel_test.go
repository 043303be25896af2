package hone_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/internal/testrepo"
)

// TestReExportFilesBelowCode: a file that only re-exports its package (a
// TypeScript index.ts of `export ... from` lines, a Python __init__.py of
// imports) names every symbol of the package and so matches any task about
// it; the file that defines the code the task describes comes first. Two
// packages written apart. When the task is about what the package exports,
// the re-export file is not demoted.
func TestReExportFilesBelowCode(t *testing.T) {
	cases := []struct {
		name, task, target, barrel string
		exportTask                 string // a task about what the package exports
		files                      map[string]string
	}{
		{
			name:       "TypeScript index",
			task:       "Coupon discount is not applied to the invoice total",
			target:     "src/billing/coupons.ts",
			barrel:     "src/billing/index.ts",
			exportTask: "Export the Invoice type from billing",
			files: map[string]string{
				"src/billing/index.ts": `export { applyCoupon, couponDiscount } from './coupons'
export { createInvoice, invoiceTotal } from './invoices'
export type { Coupon, Invoice } from './types'
`,
				"src/billing/coupons.ts": `import type { Coupon } from './types'

export function couponDiscount(coupon: Coupon, amount: number): number {
  const cut = amount * coupon.percent / 100
  return Math.floor(cut * 100) / 100
}

export function applyCoupon(amount: number, coupon?: Coupon): number {
  if (!coupon || coupon.expires < Date.now()) return amount
  return amount - couponDiscount(coupon, amount)
}
`,
				"src/billing/invoices.ts": `import type { Invoice } from './types'

export function createInvoice(customer: string): Invoice {
  return { customer, lines: [], issued: new Date() }
}

export function invoiceTotal(inv: Invoice): number {
  return inv.lines.reduce((sum, l) => sum + l.price * l.qty, 0)
}
`,
				"src/billing/types.ts": `export interface Coupon { code: string; percent: number; expires: number }
export interface Invoice { customer: string; lines: { price: number; qty: number }[]; issued: Date }
`,
				"src/app.ts": `import { applyCoupon, createInvoice } from './billing'

export function checkout(customer: string, amount: number) {
  const inv = createInvoice(customer)
  return { inv, due: applyCoupon(amount) }
}
`,
			},
		},
		{
			name:       "Python package",
			task:       "Partial refund charges the card and records no ledger entry",
			target:     "shop/payments/refunds.py",
			barrel:     "shop/payments/__init__.py",
			exportTask: "Expose record_entry at the payments package level",
			files: map[string]string{
				"shop/payments/__init__.py": `from .charges import charge_card, ChargeFailed
from .refunds import issue_refund, partial_refund
from .ledger import Ledger, record_entry

__all__ = ["charge_card", "ChargeFailed", "issue_refund", "partial_refund", "Ledger", "record_entry"]
`,
				"shop/payments/refunds.py": `from .ledger import record_entry


def issue_refund(ledger, charge):
    record_entry(ledger, "refund", -charge.amount)
    return charge.amount


def partial_refund(ledger, charge, amount):
    if amount > charge.amount:
        raise ValueError("refund exceeds the charge")
    record_entry(ledger, "refund", -amount)
    record_entry(ledger, "refund", -amount)
    return amount
`,
				"shop/payments/ledger.py": `class Ledger:
    def __init__(self):
        self.entries = []


def record_entry(ledger, kind, amount):
    ledger.entries.append((kind, amount))
`,
				"shop/payments/charges.py": `class ChargeFailed(Exception):
    pass


def charge_card(card, amount):
    if amount <= 0:
        raise ChargeFailed("nothing to charge")
    return card.charge(amount)
`,
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := testrepo.Write(t, tc.files)
			repo := open(t, dir)
			res, err := repo.Retrieve(context.Background(), tc.task, hone.RetrieveOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Ranked) == 0 || res.Ranked[0].Path != tc.target {
				t.Fatalf("Retrieve(%q): want %s first:%s", tc.task, tc.target, dump(res.Ranked))
			}
			found := false
			for _, e := range res.Ranked {
				if e.Path == tc.barrel {
					found = true
					if !strings.Contains(e.Reason, "re-exports only") {
						t.Errorf("%s: reason %q does not say it only re-exports", e.Path, e.Reason)
					}
				}
			}
			if !found {
				t.Errorf("%s not ranked:%s", tc.barrel, dump(res.Ranked))
			}

			// The same package, a task about its exports: no demotion.
			res, err = repo.Retrieve(context.Background(), tc.exportTask, hone.RetrieveOptions{})
			if err != nil {
				t.Fatal(err)
			}
			found = false
			for _, e := range res.Ranked {
				if strings.Contains(e.Reason, "re-exports only") {
					t.Errorf("Retrieve(%q): %s demoted: %s", tc.exportTask, e.Path, e.Reason)
				}
				found = found || e.Path == tc.barrel
			}
			if !found {
				t.Errorf("Retrieve(%q): %s not ranked:%s", tc.exportTask, tc.barrel, dump(res.Ranked))
			}
		})
	}
}
