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
