package advisor

// Serving constants shared by cost, recommend and serving plans.
const (
	// DefaultServeContext is the context recommend's inference workload
	// sizes a request at (prompt plus answer): 2048 tokens.
	DefaultServeContext = 2048
	// MaxReplicaCards is the largest replica the search tries unless more
	// cards are needed just to hold the model: one 8-card machine, so tensor
	// parallelism stays inside a server.
	MaxReplicaCards = 8
)

// pcieGBs is the usable per-direction bandwidth of a x16 link by PCIe
// generation: the specification's rate (Gen3 15.75, Gen4 31.5, Gen5 63 GB/s)
// × about 0.8 achievable.
var pcieGBs = map[int]float64{3: 12, 4: 25, 5: 50}

// PerMTokens is the cost of a million generated tokens: an hourly cost
// ÷ (tokens/s × 3600 s) × 10⁶. (The cost-performance seed divided by
// tokens/s and multiplied by 1000, which is 3.6 times too high.)
func PerMTokens(hourly, tokensPerS float64) float64 {
	if tokensPerS <= 0 {
		return 0
	}
	return hourly / (tokensPerS * 3600) * 1e6
}
