package decmath_test

import (
	"errors"
	"fmt"

	"github.com/agentkit/charter/helpers/decmath"
)

func ExampleAdd() {
	sum, _ := decmath.Add(0.1, "0.2", decmath.DefaultScale)
	fmt.Println(sum)
	truncated, _ := decmath.Add("-1.999", 0, 2)
	fmt.Println(truncated)
	_, err := decmath.Add("12abc", 1, 2)
	fmt.Println(err, errors.Is(err, decmath.ErrNotNumeric))
	// Output:
	// 0.3
	// -1.99
	// decmath: add: "12abc" is not numeric true
}

func ExampleDivide() {
	q, _ := decmath.Divide(2, 3, 2, true)
	fmt.Println(q)
	_, err := decmath.Divide(1, "0.0", 2, true)
	fmt.Println(errors.Is(err, decmath.ErrDivisionByZero))
	q, err = decmath.Divide(1, "0.0", 2, false)
	fmt.Println(q, err)
	// Output:
	// 0.66
	// true
	// 0 <nil>
}

func ExampleCompare() {
	c, _ := decmath.Compare("1.001", "1.002", 2)
	fmt.Println(c)
	c, _ = decmath.Compare("1.001", "1.002", 3)
	fmt.Println(c)
	// Output:
	// 0
	// -1
}

func ExampleAverage() {
	avg, _ := decmath.Average([]any{1, nil, "2", 2.0}, 2)
	fmt.Println(avg)
	// Output: 1.66
}
