import { refresh } from './refresh'

export class Session {
  token: string
  expired(): boolean { return refresh(this.token) }
}
