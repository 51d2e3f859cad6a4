package advisor

import "testing"

// Hand-valued: the median of an even list is the mean of its middle two,
// and a quote is dear only past 10 % above it.
func TestCheckQuote(t *testing.T) {
	for _, c := range []struct {
		name          string
		quote         float64
		prices        []float64
		median, ratio float64
		cheaper       int
		dear          bool
		min, max      float64
	}{
		// sorted 12, 14, 16, 20: median (14+16)/2 = 15; 18/15 = 1.2 > 1.1
		{"above the band", 18, []float64{20, 12, 16, 14}, 15, 1.2, 3, true, 12, 20},
		// 16/15 = 1.067: inside the band, about the market
		{"inside the band", 16, []float64{20, 12, 16, 14}, 15, 1.067, 2, false, 12, 20},
		// odd list: median is the middle one (2.49); 1.99 is below two of three
		{"below", 1.99, []float64{2.99, 2.49, 1.89}, 2.49, 0.799, 1, false, 1.89, 2.99},
	} {
		q := CheckQuote(c.quote, c.prices)
		if q.Median != c.median || q.Ratio != c.ratio || q.Cheaper != c.cheaper || q.Dear != c.dear || q.Min != c.min || q.Max != c.max || q.Offers != len(c.prices) {
			t.Errorf("%s: got median %v ratio %v cheaper %d dear %v min %v max %v", c.name, q.Median, q.Ratio, q.Cheaper, q.Dear, q.Min, q.Max)
		}
	}
	if q := CheckQuote(18, nil); q.Offers != 0 || q.Dear || q.Median != 0 {
		t.Errorf("no offers: %+v", q)
	}
}
