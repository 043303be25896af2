package hone_test

import (
	"context"
	"path"
	"strings"
	"testing"

	"github.com/hone-dev/hone"
	"github.com/hone-dev/hone/internal/testrepo"
)

// The code of a Vue or Svelte component is in its <script> blocks, an
// Astro component's in its frontmatter: hone knows what that code defines
// and imports, as it does for a .ts file. Three apps written apart; in each the task describes what a component's
// function does, and a store or helper the component imports does the
// work.
func TestComponentScripts(t *testing.T) {
	for _, tc := range []struct {
		name   string
		files  map[string]string
		task   string
		target string
		def    string // a definition of the target's script its reason names
		uses   string // a file the target imports, whose reason says so
	}{
		{
			name: "vue",
			files: map[string]string{
				"src/components/CheckoutForm.vue": `<template>
  <form @submit.prevent="applyCoupon">
    <input v-model="code" placeholder="Coupon" />
    <p v-if="expired">This coupon has expired</p>
  </form>
</template>

<script setup lang="ts">
import { ref } from 'vue'
import { useCart } from '../stores/cart'

const code = ref('')
const expired = ref(false)
const cart = useCart()

async function applyCoupon(): Promise<void> {
  const coupon = await cart.lookupCoupon(code.value)
  expired.value = coupon.validUntil < Date.now()
  if (!expired.value) cart.discount = coupon.percent
}
</script>
`,
				"src/components/CartList.vue": `<template>
  <ul><li v-for="item in cart.items" :key="item.id">{{ item.name }}</li></ul>
</template>
<script setup lang="ts">
import { useCart } from '../stores/cart'
const cart = useCart()
</script>
`,
				"src/stores/cart.ts": `import { defineStore } from 'pinia'

export const useCart = defineStore('cart', {
  state: () => ({ items: [] as { id: number; name: string }[], discount: 0 }),
  actions: {
    async lookupCoupon(code: string) {
      const res = await fetch('/api/coupons/' + code)
      return res.json()
    },
  },
})
`,
				"src/api/client.ts": "export function get(url: string) { return fetch(url) }\n",
			},
			task:   "applyCoupon accepts a coupon after its expiry",
			target: "src/components/CheckoutForm.vue",
			def:    "applyCoupon",
			uses:   "src/stores/cart.ts",
		},
		{
			name: "svelte",
			files: map[string]string{
				"src/lib/UploadDropzone.svelte": `<script>
  import { startUpload } from './uploads.js';

  export let maxBytes = 5_000_000;
  let rejected = [];

  function handleDrop(event) {
    const files = [...event.dataTransfer.files];
    rejected = files.filter((f) => f.size > maxBytes);
    files.filter((f) => f.size <= maxBytes).forEach(startUpload);
  }
</script>

<div class="zone" on:drop|preventDefault={handleDrop}>
  Drop files here
  {#each rejected as f}<p>{f.name} is too large</p>{/each}
</div>
`,
				"src/lib/uploads.js": `export function startUpload(file) {
  const body = new FormData();
  body.append('file', file);
  return fetch('/upload', { method: 'POST', body });
}
`,
				"src/lib/Header.svelte":   "<script>\n  export let title = '';\n</script>\n<h1>{title}</h1>\n",
				"src/routes/+page.svelte": "<script>\n  import UploadDropzone from '$lib/UploadDropzone.svelte';\n</script>\n<UploadDropzone />\n",
			},
			task:   "handleDrop lets files larger than the limit through",
			target: "src/lib/UploadDropzone.svelte",
			def:    "handleDrop",
			uses:   "src/lib/uploads.js",
		},
		{
			name: "astro",
			files: map[string]string{
				"src/components/PriceTag.astro": `---
import { roundToCents } from '../lib/money';

interface Props { amount: number; currency: string }
const { amount, currency } = Astro.props;

function formatPrice(value: number, code: string): string {
  const cents = roundToCents(value);
  return (cents / 100).toFixed(2) + ' ' + code;
}
---
<span class="price">{formatPrice(amount, currency)}</span>
`,
				"src/lib/money.ts":            "export function roundToCents(value: number): number {\n  return Math.floor(value * 100);\n}\n",
				"src/components/Footer.astro": "---\nconst year = new Date().getFullYear();\n---\n<footer>{year}</footer>\n",
				"src/pages/index.astro":       "---\nimport PriceTag from '../components/PriceTag.astro';\n---\n<PriceTag amount={9.99} currency=\"EUR\" />\n",
			},
			task:   "formatPrice rounds prices down by a cent",
			target: "src/components/PriceTag.astro",
			def:    "formatPrice",
			uses:   "src/lib/money.ts",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := open(t, testrepo.Write(t, tc.files)).Retrieve(context.Background(), tc.task, hone.RetrieveOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Ranked) == 0 || res.Ranked[0].Path != tc.target {
				t.Fatalf("want %s first:%s", tc.target, dump(res.Ranked))
			}
			if !strings.Contains(res.Ranked[0].Reason, "defines "+tc.def) {
				t.Errorf("%s: the reason does not name its script's %s: %s", tc.target, tc.def, res.Ranked[0].Reason)
			}
			found := false
			for _, e := range res.Ranked {
				if e.Path == tc.uses {
					found = true
					if !strings.Contains(e.Reason, "imported by "+path.Base(tc.target)) {
						t.Errorf("%s: the reason does not say %s imports it: %s", tc.uses, tc.target, e.Reason)
					}
				}
			}
			if !found {
				t.Errorf("%s, which %s imports, is not ranked:%s", tc.uses, tc.target, dump(res.Ranked))
			}
		})
	}
}
