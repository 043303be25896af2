package com.foo;
import com.foo.util.Helper;
import java.util.*;
public class A extends B implements C {
  A() {}
  @Override @Validated(Strict.class)
  void run() { Helper.go(); new D(); }
  interface Inner { void x(); }
  enum Color { RED }
  abstract static class Shape { abstract double area(); double half() { return area() / 2; } }
}
