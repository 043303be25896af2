#include "pool.hpp"
namespace net {
class Conn : public Base {
 public:
  void open();
  int size() { return 0; }
};
}
void net::Conn::open() { helper(); obj.run(); std::sort(a, b); }
void Conn::close() {}
int util(int x);
template <typename T> int Box<T>::get() const { return v; }
void a::b::Pool::drain() {}
template <typename T> void ns::Box<T>::put(T x) {}
