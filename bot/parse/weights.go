package parse

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
)

// The router's weights are learned from the corpus by `go test ./bot/parse
// -run TestRouterWeights -update` and embedded here, so a bot starts
// without training. TestRouterWeights fails when they no longer match what
// the training data gives.
//
// Format (gzip): "GPBR2", classes (uint8), each class's name (uvarint
// length, bytes), scale (float32), biases (classes × float32), then for each bucket with a non-zero weight, in
// order: the gap from the previous bucket (uvarint) and classes × int16
// weights (value = int16 × scale).
//
//go:embed data/router.bin.gz
var routerBin []byte

const weightsMagic = "GPBR2"

func encodeWeights(rt *router) ([]byte, error) {
	nc := len(classes)
	maxAbs := 0.0
	for _, v := range rt.w {
		maxAbs = math.Max(maxAbs, math.Abs(float64(v)))
	}
	scale := float32(maxAbs / 32767)
	if scale == 0 {
		scale = 1
	}
	var raw bytes.Buffer
	raw.WriteString(weightsMagic)
	raw.WriteByte(byte(nc))
	var tmp [binary.MaxVarintLen64]byte
	for _, c := range classes {
		raw.Write(tmp[:binary.PutUvarint(tmp[:], uint64(len(c)))])
		raw.WriteString(string(c))
	}
	binary.Write(&raw, binary.LittleEndian, scale)
	binary.Write(&raw, binary.LittleEndian, rt.bias)
	prev := 0
	q := make([]int16, nc)
	for b := 0; b < buckets; b++ {
		row := rt.w[b*nc : b*nc+nc]
		zero := true
		for c, v := range row {
			q[c] = int16(math.Round(float64(v / scale)))
			if q[c] != 0 {
				zero = false
			}
		}
		if zero {
			continue
		}
		n := binary.PutUvarint(tmp[:], uint64(b-prev))
		raw.Write(tmp[:n])
		binary.Write(&raw, binary.LittleEndian, q)
		prev = b
	}
	var out bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&out, gzip.BestCompression)
	if _, err := zw.Write(raw.Bytes()); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

func decodeWeights(data []byte) (*router, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("router weights: %w", err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("router weights: %w", err)
	}
	r := bytes.NewReader(raw)
	magic := make([]byte, len(weightsMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != weightsMagic {
		return nil, errors.New("router weights: bad header")
	}
	nc, _ := r.ReadByte()
	names := make([]Intent, nc)
	for i := range names {
		n, err := binary.ReadUvarint(r)
		if err != nil || n > 64 {
			return nil, errors.New("router weights: bad class name")
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(r, b); err != nil {
			return nil, fmt.Errorf("router weights: %w", err)
		}
		names[i] = Intent(b)
	}
	if !slices.Equal(names, classes) {
		return nil, fmt.Errorf("router weights: classes %v, the lexicon's routable intents are %v (regenerate with -update)", names, classes)
	}
	var scale float32
	rt := &router{w: make([]float32, buckets*int(nc)), bias: make([]float32, nc)}
	if err := binary.Read(r, binary.LittleEndian, &scale); err != nil {
		return nil, fmt.Errorf("router weights: %w", err)
	}
	if err := binary.Read(r, binary.LittleEndian, rt.bias); err != nil {
		return nil, fmt.Errorf("router weights: %w", err)
	}
	q := make([]int16, nc)
	b := 0
	for r.Len() > 0 {
		gap, err := binary.ReadUvarint(r)
		if err != nil {
			return nil, fmt.Errorf("router weights: %w", err)
		}
		b += int(gap)
		if b >= buckets {
			return nil, errors.New("router weights: bucket out of range")
		}
		if err := binary.Read(r, binary.LittleEndian, q); err != nil {
			return nil, fmt.Errorf("router weights: %w", err)
		}
		for c, v := range q {
			rt.w[b*int(nc)+c] = float32(v) * scale
		}
	}
	return rt, nil
}
