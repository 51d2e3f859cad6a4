package parse

func round2(v float64) float64 { return float64(int(v*100+0.5)) / 100 }
