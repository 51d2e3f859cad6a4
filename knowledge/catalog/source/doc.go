// Package source holds the catalogue's sources: the shipped seeds, the team
// file, hosted catalogue CSVs (SkyPilot, gpuhunt) and provider APIs (Vast.ai,
// RunPod, Lambda, Azure Retail Prices). Each turns what it reads into
// knowledge.Offer values keyed for the diff and reports what it skipped.
//
// Every source is independent: it fetches on its own under the refresh's
// per-source timeout, and a failure leaves its last good snapshot in place.
// FromConfig builds the configured set; a source without a key or URL is
// simply not built. HTTP sources share HTTPOptions: timeouts, a response
// size cap and bounded retries on 429/5xx honouring Retry-After. API keys
// travel in headers, never in URLs, so no error or log line carries one.
//
// Card names become knowledge GPU ids through Mapper (knowledge aliases plus
// per-source tables, checked against the card's memory); records for cards
// the knowledge base does not know are skipped and counted in
// Batch.Unknown.
package source
