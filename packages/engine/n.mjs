import { connect } from '@nats-io/transport-node';
try { await connect({servers:'127.0.0.1:1', reconnect:false}); } catch (e) { console.log(e.name, e.code, e.message, e.cause?.code, e.cause?.message); }
try { await connect({servers:'127.0.0.1:4222', user:'x', pass:'y', reconnect:false}); console.log('connected w/o auth'); } catch (e) { console.log(e.name, e.code, e.message); }
