package task

import (
	"fmt"
	"testing"
)

func TestLooseCode(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{">>> Client.objects.filter(Q(id=37)).count()", true},
		{"... ).count()", true},
		{"In [12]: print(q)", true},
		{"  >>> indented prompt", true},
		{"from django.db import models", true},
		{"import numpy as np", true},
		{"class LagTest(models.Model):", true},
		{"def test_it(self):", true},
		{"@property", true},
		{"w = Window(expression=Lag('amount', 7))", true},
		{"User.objects.annotate(", true},
		{").order_by(\"-a\").values(\"pk\")", true},
		{"x += 1", true},
		{"#include <stdio.h>", true},
		{"use std::collections::HashMap;", true},
		{"package main", true},
		{"func (c *Cart) Total() int {", true},
		{"fn main() {", true},
		{"const app = require('express');", true},
		{"let total = cart.total();", true},
		{"import java.util.List;", true},
		{"use the cache when the file is unchanged", false},
		{"let me know if this helps", false},
		{"for item in items:", false}, // not a statement this reading knows; harmless as prose
		{"except KeyError as e:", false},
		{"print(\"this string has many words in it\")", true},

		{"Case() crashes with ~Q(pk__in=[]).", false},
		{"The new enumeration types are great but can't be used in templates.", false},
		{"Traceback (most recent call last):", false},
		{"\tself._raiseFailure(msg)", false}, // indented: a frame's source line
		{"import the module first, then call it", false},
		{"x == y is not what users expect here", false},
		{"Expected: 1, 0, 1", false},
		{"", false},
	} {
		if got := looseCode(c.line); got != c.want {
			t.Errorf("looseCode(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

// An unfenced reproducer weighs as the same lines in a fence would: its
// names are code identifiers, not names the user wrote in a sentence.
func TestLooseCodeWeighsAsCode(t *testing.T) {
	body := "Enum values break templates\nDescription\n%sfrom app.models import YearInSchool\n>>> YearInSchool.FRESHMAN.label\n%s" +
		"The frobnicator should not be called.\n"
	loose := Parse(fmt.Sprintf(body, "", ""))
	fenced := Parse(fmt.Sprintf(body, "```\n", "```\n"))
	for _, term := range []string{"yearinschool", "yearinschool.freshman.label", "app.models"} {
		if a, b := weightOf(loose, term), weightOf(fenced, term); a != b || a == 0 {
			t.Errorf("weight of %s: loose %v, fenced %v; want equal and positive", term, a, b)
		}
	}
	if w := weightOf(loose, "yearinschool"); w >= IdentifierWeight {
		t.Errorf("weight of yearinschool = %v, want less than a prose identifier's %v", w, IdentifierWeight)
	}
	if w := weightOf(loose, "frobnicator"); w != WordWeight {
		t.Errorf("the prose after the code: weight of frobnicator = %v, want %v", w, WordWeight)
	}
}

// IPython prints numbered source lines under its frames; they are the
// trace's code, weighed like the line Python prints under a frame.
func TestIPythonSourceLines(t *testing.T) {
	got := Parse("Lag crashes\nOperationalError   Traceback (most recent call last)\n" +
		"C:\\envs\\site-packages\\django\\db\\backends\\utils.py in _execute(self, sql)\n" +
		"\t 85\t\t\t else:\n---> 86\t\t\t\t return self.cursor.execute(sql, params)\n")
	if w := weightOf(got, "params"); w != TraceCodeWeight {
		t.Errorf("weight of params = %v, want TraceCodeWeight %v", w, TraceCodeWeight)
	}
	if w := weightOf(got, "86"); w != 0 {
		t.Errorf("the line number 86 is a keyword of weight %v", w)
	}
}
