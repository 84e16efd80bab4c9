#!/usr/bin/env python3
# sim/scenarios/hand_check.py [VECTORS_DIR]: the hand check of the scenario
# vectors' counts, as a program written apart from the simulator (python3,
# standard library only; not part of make check).
#
# It restates the rules of sim/scenarios/README.md and D-SIM-RNG: SipHash-1-3
# and SplitMix64 from their definitions (checked against published values),
# the purposes' streams, each host thread's executes (10 us + its index, then
# 9 us of host steps + the jittered device time + the request interval, while
# it starts before the end), the events of each execute, load and unload,
# the notifications at each execute's mid-point and the numerical-error rule;
# then compares E, every per-type count, every NC's events, the events in
# all and the notifications posted with each recorded vector. The scenarios'
# parameters are typed here again from their files. Prints one line per
# scenario, OK or what differs.
import heapq, os, re, sys, collections
M=(1<<64)-1
def rotl(x,b): return ((x<<b)|(x>>(64-b)))&M
def sipround(v0,v1,v2,v3):
    v0=(v0+v1)&M; v1=rotl(v1,13); v1^=v0; v0=rotl(v0,32)
    v2=(v2+v3)&M; v3=rotl(v3,16); v3^=v2
    v0=(v0+v3)&M; v3=rotl(v3,21); v3^=v0
    v2=(v2+v1)&M; v1=rotl(v1,17); v1^=v2; v2=rotl(v2,32)
    return v0,v1,v2,v3
def siphash13(k0,k1,data):
    v0=k0^0x736f6d6570736575; v1=k1^0x646f72616e646f6d; v2=k0^0x6c7967656e657261; v3=k1^0x7465646279746573
    n=len(data); end=n-n%8
    for i in range(0,end,8):
        m=int.from_bytes(data[i:i+8],'little'); v3^=m
        v0,v1,v2,v3=sipround(v0,v1,v2,v3); v0^=m
    b=(n&0xff)<<56
    for i,c in enumerate(data[end:]): b|=c<<(8*i)
    v3^=b; v0,v1,v2,v3=sipround(v0,v1,v2,v3); v0^=b
    v2^=0xff
    for _ in range(3): v0,v1,v2,v3=sipround(v0,v1,v2,v3)
    return v0^v1^v2^v3
assert siphash13(0,0,bytes(range(15)))==0xf30eb725bb91c9ea
G=0x9E3779B97F4A7C15
def mix(z):
    z=((z^(z>>30))*0xBF58476D1CE4E5B9)&M
    z=((z^(z>>27))*0x94D049BB133111EB)&M
    return z^(z>>31)
assert mix(G)==0xE220A8397B1DCDAF
def H(name): return siphash13(0x6e7473696d2d7631,0x646967657374,name.encode())
class Stream:
    def __init__(s,seed,purpose,entity):
        s.key=mix(mix(seed^H(purpose))^mix((entity+G)&M)); s.n=0
    def next(s):
        s.n+=1; return mix((s.key+s.n*G)&M)
    def below(s,n):
        x=s.next(); return 0 if n==0 else x%n
US=1000
def simulate(sc):
    seed=sc['seed']; N=sc['cores']; T=sc['threads']; I=sc['interval']; D=sc['duration']; L=sc.get('lnc',1)
    models=sc['models']; start=1700000000000000000; end=start+D
    q=[]; seq=0
    for t in range(T):
        heapq.heappush(q,(start+10*US+t*US,seq,t)); seq+=1
    done=[0]*T; ex=[]; nid=0
    while q:
        now,_,t=heapq.heappop(q)
        if now>=end: continue
        nid+=1
        m=models[(t+done[t])%len(models)]; done[t]+=1
        jit=m['exec']//8
        x=m['exec']-jit//2+Stream(seed,"exec_jitter",nid).below(jit+1)
        x=max(x,2)
        ex.append(dict(id=nid,t=t,nc=t%N,m=m,start=now,mid=now+6*US+x//2,stop=now+6*US+x))
        heapq.heappush(q,(now+9*US+x+I,seq,t)); seq+=1
    c=collections.Counter(); per_nc=collections.Counter(); posted=0
    # loads
    c['GENERIC']+=1; per_nc[0]+=1
    for nc in range(N):
        for m in models:
            n=2+4+(0 if not m['cc'] else 2+4+2)  # MODEL_LOAD, DMA weights+IO, CC_LOAD + 4 hostcc + DMA CC
            c['MODEL_LOAD']+=2; c['DMA_MEM_ALLOC']+=4+(2 if m['cc'] else 0); c['DMA_MEM_DEALLOC']+=4+(2 if m['cc'] else 0)
            if m['cc']:
                c['CC_LOAD']+=2
                for k in ('CC_PREPARE','CC_SCHEDULE','HOSTCC_BUILD_CONTEXT','HOSTCC_LOAD'): c[k]+=1
            per_nc[nc]+=2+4+4+(2+4+2+2 if m['cc'] else 0)
    last=[0]*N
    faults=sc.get('faults',[])
    pend_err={}  # numerical error: (nc) -> time
    for f in faults:
        if f[0]=='num': pend_err[f[2]]=f[1]
        if f[0]=='inv': posted+=f[3]
    err_posted=0; numerr=0
    for e in sorted(ex,key=lambda e:e['id']):
        nc=e['nc']; m=e['m']; k=collections.Counter()
        for t_ in ('EXECUTE_API','RUNTIME_EXECUTE','EXEC_PRE','EXEC_CORE','EXEC_WAIT','EXEC_POST','CONSUME_TPB_STATUS_NOTIFICATIONS','CONSUME_ERROR_NOTIFICATIONS'): k[t_]+=2
        for t_ in ('POST_REQUEST','MODEL_SUBMIT','ASYNC_SEMA_WAIT','TENSOR_WRITE_BATCH','DMEM_BUF_BATCH_COPYIN','TIMESTAMP_SYNC','CONSUME_POOL_STDIO','TENSOR_READ_BATCH','DMEM_BUF_BATCH_COPYOUT'): k[t_]+=1
        k['TENSOR_ALLOC']+=m['in']+m['out']; k['TENSOR_FREE']+=m['in']+m['out']
        k['TENSOR_WRITE']+=2*m['in']; k['DMEM_BUF_COPYIN']+=m['in']
        k['TENSOR_READ']+=2*m['out']; k['DMEM_BUF_COPYOUT']+=m['out']
        if e['id']%3==0: k['TENSOR_BLOCK_WHILE_EXEC']+=1   # request id == exec id
        if last[nc]!=0 and last[nc]!=m['id']: k['MODEL_SWITCH']+=L; k['NC_MODEL_SWITCH']+=2*L
        last[nc]=m['id']
        k['DEVICE_EXEC']+=2*L; k['HW_NOTIFY']+=L
        if m['cc']:
            for t_ in ('CC_EXEC_BARRIER','CC_EXEC','HOSTCC_EXEC','CONSUME_TOPSP_CC_NOTIFICATIONS'): k[t_]+=2
            for t_ in ('ENC_BARRIER_SEND','ENC_BARRIER_RECV','ENC_BARRIER','HOSTCC_WAIT'): k[t_]+=1
        # notifications at mid
        posted+=3*L
        sd=Stream(seed,"notify_dma",e['id']); st=Stream(seed,"notify_throttle",e['id'])
        for j in range(L):
            posted+= sd.below(2)==0; posted+= st.below(4)==0
        if nc in pend_err and pend_err[nc] is not None and start+pend_err[nc] < e['mid']:
            posted+=1; err_posted+=1
        if m['cc']:
            posted+=2; posted+= Stream(seed,"notify_topsp_error",e['id']).below(4)==0
        if nc in pend_err and pend_err[nc] is not None and start+pend_err[nc] < e['stop']:
            k['NUM_ERR']+=1; numerr+=1; pend_err[nc]=None
        c.update(k); per_nc[nc]+=sum(k.values())
    return dict(E=len(ex),counts=c,per_nc=per_nc,posted=posted,err_posted=err_posted,numerr=numerr,
                total=sum(c.values()),ex=ex)
def parse_vector(path):
    s=open(path).read()
    got={}
    got['executes']=int(re.search(r'executes: (\d+)',s).group(1))
    got['events']=int(re.search(r'events_emitted: (\d+)',s).group(1))
    got['trace']=int(re.search(r'trace_events: (\d+)',s).group(1))
    pt=re.search(r'per_type:\n((?:      .*\n)+)',s)
    got['per_type']={a:int(b) for a,b in re.findall(r'      (\w+): (\d+)',pt.group(1))} if pt else {}
    got['ncs']={int(a):int(b) for a,b in re.findall(r'\{nc: (\d+), created: (\d+)',s)}
    got['posted']=int(re.search(r'posted: (\d+)',s).group(1))
    return got
mlp=dict(id=1,exec=30000,cc=False,**{'in':2,'out':1}); allr=dict(id=2,exec=50000,cc=True,**{'in':1,'out':1})
S={
 'default':dict(seed=42,cores=2,threads=2,interval=40000,duration=1000000,models=[mlp,allr],
    faults=[('inv',100000,0,1),('inv',200000,1,1),('inv',300000,0,2),('num',500000,1)]),
 'fetch_interval':dict(seed=5,cores=2,threads=2,interval=40000,duration=1000000,models=[mlp,dict(id=2,exec=50000,cc=True,**{'in':1,'out':1})]),
 'trn1':dict(seed=101,cores=4,threads=4,interval=40000,duration=1000000,models=[mlp,allr]),
 'trn2_lnc2':dict(seed=202,cores=4,threads=4,interval=40000,duration=1000000,models=[mlp,allr],lnc=2,faults=[('num',280000,2)]),
 'trn2_48xl':dict(seed=4848,cores=64,threads=64,interval=20000,duration=1000000,lnc=2,models=[dict(id=1,exec=60000,cc=True,**{'in':2,'out':2})]),
 'clock_drift':dict(seed=6,cores=4,threads=4,interval=500000,duration=50000000,models=[dict(id=1,exec=30000,cc=False,**{'in':1,'out':1})]),
}
vdir=sys.argv[1] if len(sys.argv)>1 else os.path.join(os.path.dirname(os.path.abspath(__file__)),'..','..','vectors')
failed=False
for name,sc in S.items():
    r=simulate(sc); g=parse_vector('%s/scenario_%s.yaml'%(vdir,name))
    bad=[]
    if r['E']!=g['executes']: bad.append(('E',r['E'],g['executes']))
    if r['total']!=g['events']: bad.append(('events',r['total'],g['events']))
    for k in set(r['counts'])|set(g['per_type']):
        if r['counts'].get(k,0)!=g['per_type'].get(k,0): bad.append((k,r['counts'].get(k,0),g['per_type'].get(k,0)))
    for nc,v in g['ncs'].items():
        if r['per_nc'][nc]!=v: bad.append(('nc%d'%nc,r['per_nc'][nc],v))
    if r['posted']!=g['posted']: bad.append(('posted',r['posted'],g['posted']))
    failed=failed or bool(bad)
    print(name,'E=%d C=%d'%(r['E'],sum(1 for e in r['ex'] if e['m']['cc'])),'err_posted',r['err_posted'],'numerr',r['numerr'],'OK' if not bad else bad)
sys.exit(1 if failed else 0)
