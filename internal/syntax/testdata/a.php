<?php
namespace App\Http;
use App\Models\User;
use App\Support\{Str, Arr as A};
require_once 'config.php';
class Controller extends Base implements Iface {
    private $x;
    const LIMIT = 3;
    public function show($id) { $u = new User(); $u->save(); helper(); }
}
function helper() {}
